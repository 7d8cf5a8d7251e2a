"""PRESS TO <names> / BROADCAST (GREY for grey press), the text, then ENDPRESS: a message to
other powers.

Which press a game allows is its press setting (SET PRESS): NONE forbids press between
players, WHITE allows only signed press, GREY only grey (anonymous) press, ALL both. The GM's
own press is always allowed. Each recipient gets a separate message (addresses stay private);
the GM gets a copy of every press, naming the sender even of grey press.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lark import Token

from gm.commands.reading import Draft, Invalid, quote
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command, Line, UnendedPress, Unreadable
from gm.policies import PressPolicy

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context

GM_NAME = "GM"



# HELP PRESS: the topic is about this command alone.
HELP = """\
HELP PRESS

Press is a message to other powers. It starts with a PRESS TO or BROADCAST line, its text
follows on the next lines, and a line ENDPRESS ends it:

    PRESS TO England, Germany
    Shall we talk about the North Sea?
    ENDPRESS

    PRESS TO Italy             to one power
    PRESS TO Italy, Austria    to several, with commas between the names; spaces will do
                               when no name has two words:
                               PRESS TO Italy Austria
                               PRESS TO St Petersburg, Warsaw
    PRESS TO GM                to the gamemaster
    BROADCAST                  to every power (PRESS TO ALL is the same)
    GREY PRESS TO Italy        grey press: sent without your name, where the game allows it
    GREY BROADCAST             grey press to everyone

GRAY is the same as GREY, and GREY may also end the line: PRESS TO Italy GREY. The text of a
press message is sent exactly as written. A press line without its ENDPRESS is not sent.
The gamemaster gets a copy of all press, grey press with its sender named.
"""

# What each of the press keywords needs (told when its line cannot be read).
USAGE: dict[str, str] = {
    "PRESS": (
        "PRESS needs its recipients, separated by commas: PRESS TO France, Germany (GREY PRESS"
        " TO France for grey press); the text follows on the next lines, then a line ENDPRESS"
    ),
    "BROADCAST": (
        "BROADCAST takes nothing after it (GREY BROADCAST for grey press); the text follows on"
        " the next lines, then a line ENDPRESS"
    ),
    "GREY": "GREY goes before PRESS or BROADCAST: GREY PRESS TO France or GREY BROADCAST",
    "ENDPRESS": (
        "ENDPRESS ends a press message, and there is no PRESS TO or BROADCAST line open before"
        " it"
    ),
}
USAGE["GRAY"] = USAGE["GREY"]


@dataclass
class OpenPress:
    """A PRESS TO or BROADCAST line whose ENDPRESS has not been read yet (gm.commands.parse
    keeps the lines after it verbatim, up to ENDPRESS)."""

    line: Line
    recipients: tuple[str, ...]
    broadcast: bool
    grey: bool
    body: list[str] = field(default_factory=list)

    def close(self, end_line: int) -> Command:
        lines = list(self.body)
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        if not lines:
            return Unreadable(
                self.line,
                f"{quote(self.line.text)} (line {self.line.number}) has no text before its"
                f" ENDPRESS (line {end_line}); nothing was sent. Write the message on the lines"
                " between them",
                "PRESS",
            )
        return Press(
            self.line, self.recipients, self.broadcast, self.grey, "\n".join(lines), end_line
        )

    def unended(self) -> UnendedPress:
        return UnendedPress(
            self.line,
            f"{quote(self.line.text)} (line {self.line.number}) has no ENDPRESS line after it;"
            f" the press was not sent, and {_lines_after(len(self.body))} taken as its text."
            " End a press message with a line ENDPRESS",
        )


@dataclass(frozen=True)
class Press(Command):
    """A press message: `PRESS TO France, Germany` or `BROADCAST`, its text, then `ENDPRESS`.

    `recipients` are the names as written (empty for a broadcast); `body` is the text between
    the two lines, verbatim except that blank lines around it are dropped.
    """

    recipients: tuple[str, ...]
    broadcast: bool
    grey: bool
    body: str
    end_line: int


def _lines_after(count: int) -> str:
    return "the line after it was" if count == 1 else f"the {count} lines after it were"


def read_press_to(c: list[Any]) -> Draft:
    recipients = next(x for x in c if isinstance(x, tuple))
    grey = any(isinstance(x, Token) for x in c)
    if len(recipients) == 1 and recipients[0].upper() == "ALL":
        return Draft(lambda line: OpenPress(line, (), True, grey))
    return Draft(lambda line: OpenPress(line, recipients, False, grey))


def read_broadcast(c: list[Token]) -> Draft:
    grey = bool(c)
    return Draft(lambda line: OpenPress(line, (), True, grey))


def read_endpress(c: list[Token]) -> Draft:
    raise Invalid(USAGE["ENDPRESS"])


def handle(ctx: Context, command: Press) -> None:
    from gm.commands.handlers.common import open_phase_of, refresh, variant_of
    from gm.commands.handlers.context import Notice
    from gm.mail.compose import build_subject
    from gm.play.render import render
    from gm.store import powers as powers_repo
    from gm.store import press as press_repo
    from gm.store.statuses import GameStatus

    what = str(command.line)
    signed = ctx.signed
    if signed is None:
        ctx.results.add(f"{what}: refused, sign on first (SIGNON <power> <game> <password>); "
                        "the press was not sent.")
        return
    game = refresh(ctx, signed.game)
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"{what}: refused, {game.name} is finished; the press was not sent.")
        return
    sender = signed.power  # None: the GM
    if sender is not None:
        reason = _refusal(game.settings.press, command.grey)
        if reason is not None:
            ctx.results.add(f"{what}: refused, {reason}; the press was not sent.")
            return
    variant = variant_of(game)
    to_gm = command.broadcast
    to_powers: list[str] = []
    if command.broadcast:
        to_powers = [p for p in variant.power_names if p != sender]
    else:
        for name in command.recipients:
            if name.upper() == GM_NAME:
                to_gm = True
                continue
            power = variant.power(name)
            if power is None:
                names = ", ".join(variant.power_names)
                ctx.results.add(f"{what}: refused, {name!r} is not a power of {game.name} "
                                f"(powers: {names}, or GM); the press was not sent.")
                return
            if power.name != sender and power.name not in to_powers:
                to_powers.append(power.name)
        if not to_powers and not (to_gm and sender is not None):
            ctx.results.add(f"{what}: refused, it names no one but yourself; the press was "
                            "not sent.")
            return
    phase = open_phase_of(ctx, game)
    # stored as sent: a power's press that names the GM lists it (reports say "to the GM")
    named = to_powers + ([GM_NAME] if to_gm and sender is not None and not command.broadcast
                         else [])
    press_repo.record_press(
        ctx.session, game.id, from_power=sender, from_address=ctx.sender, body=command.body,
        now=ctx.now, to_powers=named, broadcast=command.broadcast,
        anonymous=command.grey and sender is not None,
        phase_id=None if phase is None else phase.id, inbound_id=ctx.inbound_id)
    grey = command.grey and sender is not None
    sender_name = sender or "the GM"
    listed = (["everyone"] if command.broadcast
              else to_powers + (["the GM"] if to_gm else []))
    to_text = ", ".join(listed)
    subject = build_subject("grey press" if grey else f"press from {sender_name}",
                            game=game.name)
    body = render("press/message.txt.j2", grey=grey, sender=sender_name, sender_for_gm=None,
                  game=game.name, to=to_text, body=command.body, service=ctx.service)
    addresses = {p.name: p.addresses for p in powers_repo.list_powers(ctx.session, game.id)}
    delivered: list[str] = []
    unplayed: list[str] = []
    for name in to_powers:
        if addresses.get(name):
            delivered.append(name)
        else:
            unplayed.append(name)
        for address in addresses.get(name, ()):
            ctx.results.mail.append(Notice((address,), subject, body, game.id))
    if sender is not None:  # the GM's copy: every press, with the sender of grey press
        gm_body = body if not grey else render(
            "press/message.txt.j2", grey=True, sender=sender_name, sender_for_gm=sender,
            game=game.name, to=to_text, body=command.body, service=ctx.service)
        ctx.results.mail.append(Notice((game.gm_address,), subject, gm_body, game.id))
    ctx.results.game = game.name
    kind = "Grey press" if grey else "Press"
    went = delivered + (["the GM"] if sender is not None else [])
    line = f"{kind} sent to {', '.join(went) if went else 'no one'}."
    if unplayed:
        line += f" Not delivered to {', '.join(unplayed)} (no player)."
    ctx.results.add(line)


def _refusal(policy: PressPolicy, grey: bool) -> str | None:
    """Why the game's press setting forbids this press, or None if it allows it."""

    if policy is PressPolicy.NONE:
        return "this game allows no press (SET PRESS NONE)"
    if grey and policy is PressPolicy.WHITE:
        return "this game allows only signed press (SET PRESS WHITE); send it as PRESS TO"
    if not grey and policy is PressPolicy.GREY:
        return "this game allows only grey press (SET PRESS GREY); send it as GREY PRESS TO"
    return None


COMMAND = CommandSpec(
    value=Press,
    keywords=("PRESS", "BROADCAST", "GREY", "GRAY", "ENDPRESS"),
    rules={"press_to": read_press_to, "broadcast": read_broadcast, "endpress": read_endpress},
    handle=handle,
    usage=USAGE,
    help=(HelpLines("PRESS", 10, HELP),),
)
