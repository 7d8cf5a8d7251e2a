"""What SIGNON (a power, or the GM) and JOIN share: a refused sign-on."""

from __future__ import annotations

from gm.commands.handlers.context import Context

REFUSED = "the commands after it in this message are ignored."


def refuse(ctx: Context, text: str) -> None:
    ctx.signed = None
    ctx.refused_signon = True
    ctx.results.add(f"{text} Signon refused; {REFUSED}")


