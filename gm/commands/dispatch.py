"""Run a message's commands in order: each to its handler, errors and the rest into the reply.

Each command's handler is the one its module in gm.commands.catalog names (`HANDLERS`, made
from the registry there). The adjudicating commands load the adjudicator and the reports when
they first run, so that a `gm ingest` of orders does not.
Order lines go to order taking (gm.commands.handlers.order_taking), in the block at the end of
this module.
"""

from __future__ import annotations

from collections.abc import Sequence

from gm.commands.catalog import ANSWERS_ONLY, HANDLERS, WITHOUT_SIGNON
from gm.commands.catalog.signoff import SignOff
from gm.commands.handlers.context import Context
from gm.commands.handlers.order_taking import order_line
from gm.commands.handlers.unsigned import not_a_command, signon_hint
from gm.commands.reply_cap import ReplyCap
from gm.commands.spec import Handler
from gm.commands.values import Command, CommandError, NotACommand, OrderLine
from gm.mail.compose import build_subject
from gm.play.render import render
from gm.store.outgoing import Outgoing


def run_commands(ctx: Context, commands: Sequence[Command]) -> None:
    """Run `commands` in order against `ctx`, writing into `ctx.results` (within what one
    reply may carry, gm.commands.reply_cap)."""
    cap = ReplyCap(ctx)
    unsigned = 0  # lines that were not commands, before any SIGNON
    signed_any = False  # a sign-on of the message succeeded: it is answered in any case
    for command in commands:
        signed_any = signed_any or ctx.signed is not None
        ctx.command_starts(command)  # what goes on over several commands hears of it
        if isinstance(command, SignOff):
            break
        if isinstance(command, NotACommand):
            not_a_command(ctx, command, unsigned)
            unsigned += 1
            continue
        if isinstance(command, CommandError):
            if not cap.repeated(command):
                ctx.results.add(str(command))
            if getattr(command, "keyword", "") == "SIGNON":
                ctx.signed = None
                ctx.refused_signon = True
            continue
        if ctx.refused_signon and not isinstance(command, WITHOUT_SIGNON):
            continue  # the sign-on they follow was refused: said once, at the SIGNON
        handler = handler_for(type(command))
        if handler is None:
            words = command.line.text.upper().split()
            keyword = " ".join(words[:2] if words[:1] == ["SET"] else words[:1])
            ctx.results.add(f"{command.line}: {keyword} is not available yet.")
            continue
        if isinstance(command, ANSWERS_ONLY):
            if not cap.repeated(command) and cap.admits(command):
                handler(ctx, command)
                cap.answered_one(command)
            continue
        handler(ctx, command)
    ctx.message_ends()  # what went on over several commands finishes (orders are stored)
    if signed_any or ctx.signed is not None:
        ctx.results.withheld = False
    if unsigned and ctx.signed is None and not ctx.refused_signon:
        signon_hint(ctx)
    cap.close()
    _queue_copies(ctx)


def handler_for(kind: type[Command]) -> Handler | None:
    """The handler of commands of this type, or None."""
    if kind is OrderLine:
        return _take_order
    return HANDLERS.get(kind)


def _queue_copies(ctx: Context) -> None:
    """Send a copy of the reply to the addresses that asked for one (a power's registered
    address when someone signed on to it from elsewhere)."""
    copies = [a for a in ctx.results.copies if a.lower() != ctx.sender.lower()]
    if not copies:
        return
    body = render("reply/copy.txt.j2", sender=ctx.sender, lines=ctx.results.lines,
                  service=ctx.service)
    subject = build_subject(f"copy of the reply to {ctx.sender}", game=ctx.results.game)
    game_id = None if ctx.signed is None else ctx.signed.game.id
    for address in dict.fromkeys(copies):
        ctx.results.mail.append(Outgoing((address,), subject, body, game_id))


# --------------------------------------------------------------------------------------------
# Order taking (gm.commands.handlers.order_taking): order lines


def _take_order(ctx: Context, command: OrderLine) -> None:
    order_line(ctx, command)
