"""PRESS TO <names> / BROADCAST (GREY for grey press), the text, then ENDPRESS: a message to
other powers.

Which press a game allows is its press setting (SET PRESS): NONE forbids press between
players, WHITE allows only signed press, GREY only grey (anonymous) press, ALL both; SET NO
PARTIAL allows only press to everyone (or the GM), SET FAKE allows fake press. The GM's own
press is always allowed. Each recipient gets a separate message (addresses stay private);
the GM gets a copy of every press, naming the sender even of grey and fake press.

A press runs to its ENDPRESS (or ENDBROADCAST): every line before it, one that reads as another
press heading, an order or a command too, is its text (njudge). Press is never dropped for want
of its ENDPRESS: as on the classic judges, SIGNOFF or the end of the mail ends it (also a SIGNON
line, whose password is sent to no one); the reply says so, and quotes the lines in it that read
as orders (sent as press, not taken as orders). Under a heading that cannot be read nothing is
sent and nothing is taken, up to its ENDPRESS (gm.commands.parse).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from lark import Token

from gm.commands.handlers.common import open_phase_of, refresh, variant_of
from gm.commands.handlers.context import Notice
from gm.commands.handlers.press_settings import fake_allowed, partial_allowed
from gm.commands.reading import Draft, Invalid, quote
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command, Line, Unreadable
from gm.engine.errors import OrderError
from gm.mail.compose import build_subject
from gm.notation import parse_order
from gm.play.render import render
from gm.policies import PressPolicy
from gm.store import powers as powers_repo
from gm.store import press as press_repo
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.engine.variant import Variant

GM_NAME = "GM"



# HELP PRESS: the topic is about this command alone.
HELP = """\
HELP PRESS

Press is a message to other powers. It starts with a PRESS TO or BROADCAST
line, its text follows on the next lines, and a line ENDPRESS ends it
(ENDBROADCAST, the classic judges' word, too):

    PRESS TO England, Germany
    Shall we talk about the North Sea?
    ENDPRESS

    PRESS TO Italy             to one power
    PRESS TO Italy, Austria    to several, with commas between the names
    PRESS TO Italy Austria     spaces will do when no name has two words
    PRESS TO IAT               a run of one-letter codes: Italy, Austria,
                               Turkey
    PRESS TO ALL BUT Russia    to every power but those named (also PRESS
                               BUT Russia)
    PRESS TO GM                to the gamemaster
    BROADCAST                  to every power (PRESS TO ALL is the same)
    GREY PRESS TO Italy        grey press: sent without your name, where
                               the game allows it (GRAY is the same word)
    PRESS TO Italy GREY        the same
    GREY BROADCAST             grey press to everyone

The text is sent exactly as written: every line up to ENDPRESS is text,
also one that reads as a press line, an order or a command. A press
message without its ENDPRESS is still sent: it ends at SIGNOFF, at the
next SIGNON line, or at the end of the mail, and the reply says so. Lines
in it that read as orders are sent as press, not taken as orders: the
reply quotes them. Under a press line that cannot be read nothing is sent
and nothing is taken up to its ENDPRESS: the reply quotes it.

Where the gamemaster allows fake press (SET FAKE), a press line may end with
    FAKE <power>               shown to its recipients as from that power
    FAKE BROADCAST             shown to them as sent to everyone
    FAKE PARTIAL TO <powers>   shown to them as sent to those powers
The gamemaster's copy names the true sender and recipients, and the phase
reports list fake press as grey press. Where the gamemaster forbids partial
press (SET NO PARTIAL), press goes to everyone (BROADCAST) or to the GM.

The gamemaster gets a copy of all press, grey press with its sender named.
"""

# What each of the press keywords needs (told when its line cannot be read).
USAGE: dict[str, str] = {
    "PRESS": (
        "PRESS needs its recipients, separated by commas: PRESS TO France, Germany (GREY PRESS"
        " TO France for grey press; PRESS TO ALL BUT Russia; FAKE after them where the game"
        " allows it: HELP PRESS); the text follows on the next lines, then a line ENDPRESS"
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
USAGE["ENDBROADCAST"] = USAGE["ENDPRESS"].replace("ENDPRESS", "ENDBROADCAST", 1)


class PressEnd(StrEnum):
    """What ended a press message: its ENDPRESS (or ENDBROADCAST) line, or, when it had none,
    a SIGNOFF line, a SIGNON line or the end of the message (PRESS: no longer made; kept for
    values read before)."""

    ENDPRESS = "ENDPRESS"
    SIGNOFF = "SIGNOFF"
    SIGNON = "SIGNON"
    PRESS = "PRESS"
    MESSAGE = "MESSAGE"


@dataclass(frozen=True)
class Fake:
    """A FAKE option of a press line: shown as from `sender`, or as sent to `shown_to`
    (empty: to everyone, FAKE BROADCAST)."""

    sender: str | None = None
    shown_to: tuple[str, ...] | None = None


@dataclass
class OpenPress:
    """A PRESS TO or BROADCAST line whose end has not been read yet (gm.commands.parse keeps
    the lines after it verbatim, up to ENDPRESS or whatever else ends it: PressEnd)."""

    line: Line
    recipients: tuple[str, ...]
    broadcast: bool
    grey: bool
    body: list[str] = field(default_factory=list)
    but: bool = False
    fake: Fake | None = None

    def close(self, end_line: int, ending: PressEnd = PressEnd.ENDPRESS) -> Command:
        """The press, ended at line `end_line` (0: the end of the message) by `ending`."""
        lines = list(self.body)
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        if not lines:
            where = (f"its ENDPRESS (line {end_line})" if ending is PressEnd.ENDPRESS
                     else "the end of the message" if ending is PressEnd.MESSAGE
                     else f"line {end_line}")
            return Unreadable(
                self.line,
                f"{quote(self.line.text)} (line {self.line.number}) has no text before {where};"
                " nothing was sent. Write the message on the lines after it, then a line"
                " ENDPRESS",
                "PRESS",
            )
        return Press(self.line, self.recipients, self.broadcast, self.grey, "\n".join(lines),
                     end_line, ending, self.but, self.fake)


@dataclass(frozen=True)
class Press(Command):
    """A press message: `PRESS TO France, Germany` or `BROADCAST`, its text, then `ENDPRESS`.

    `recipients` are the names as written (empty for a broadcast; with `but`, the powers left
    out); `body` is the text between the two lines, verbatim except that blank lines around it
    are dropped. `ending` says what ended it at line `end_line` (0: the end of the message).
    """

    recipients: tuple[str, ...]
    broadcast: bool
    grey: bool
    body: str
    end_line: int
    ending: PressEnd = PressEnd.ENDPRESS
    but: bool = False
    fake: Fake | None = None


def _options(c: list[Any]) -> tuple[bool, Fake | None]:
    """GREY and FAKE among a press line's parts."""
    grey = any(isinstance(x, Token) for x in c)
    fakes = [x for x in c if isinstance(x, Fake)]
    if len(fakes) > 1:
        raise Invalid("a press line takes one FAKE option: FAKE <power>, FAKE BROADCAST or"
                      " FAKE PARTIAL TO <powers>")
    return grey, (fakes[0] if fakes else None)


def read_press_to(c: list[Any]) -> Draft:
    recipients = next(x for x in c if isinstance(x, tuple))
    grey, fake = _options(c)
    return Draft(lambda line: OpenPress(line, recipients, False, grey, fake=fake))


def read_press_but(c: list[Any]) -> Draft:
    left_out = next(x for x in c if isinstance(x, tuple))
    grey, fake = _options(c)
    return Draft(lambda line: OpenPress(line, left_out, False, grey, but=True, fake=fake))


def read_broadcast(c: list[Any]) -> Draft:
    grey, fake = _options(c)
    return Draft(lambda line: OpenPress(line, (), True, grey, fake=fake))


def read_press_grey(c: list[Token]) -> Token:
    return c[0]


def read_fake_from(c: list[list[str]]) -> Fake:
    return Fake(sender=" ".join(c[0]))


def read_fake_broadcast(c: list[Token]) -> Fake:
    return Fake(shown_to=())


def read_fake_partial(c: list[tuple[str, ...]]) -> Fake:
    return Fake(shown_to=c[0])


def read_endpress(c: list[Token]) -> Draft:
    raise Invalid(USAGE["ENDPRESS"])


def handle(ctx: Context, command: Press) -> None:
    """Send the press (or say why not); of a press that had no ENDPRESS, say where it ended
    and quote the lines in it that read as orders."""
    sent = _send(ctx, command)
    if command.ending is not PressEnd.ENDPRESS and ctx.signed is not None:
        orders = _order_like(variant_of(ctx.signed.game), command.body)
        ctx.results.add(_unended_note(command, orders, sent))


def _send(ctx: Context, command: Press) -> bool:
    """Send the press; whether it was sent (else the reply says why not)."""
    what = str(command.line)
    signed = ctx.signed
    if signed is None:
        ctx.results.add(f"{what}: refused, sign on first (SIGNON <power> <game> <password>); "
                        "the press was not sent.")
        return False
    game = refresh(ctx, signed.game)
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"{what}: refused, {game.name} is finished; the press was not sent.")
        return False
    sender = signed.power  # None: the GM
    if sender is not None:
        reason = _refusal(game.settings.press, command.grey)
        if reason is None and command.fake is not None and not fake_allowed(game.settings):
            reason = ("this game allows no fake press (the GM allows it with SET FAKE); send"
                      " it without FAKE")
        if reason is not None:
            ctx.results.add(f"{what}: refused, {reason}; the press was not sent.")
            return False
    variant = variant_of(game)
    named = _powers(variant, command.recipients)
    if isinstance(named, str):
        ctx.results.add(f"{what}: refused, {named!r} is not a power of {game.name} (powers:"
                        f" {', '.join(variant.power_names)}, or GM); the press was not sent.")
        return False
    to_gm = command.broadcast or command.but
    to_powers: list[str] = []
    if command.broadcast or command.but:
        to_powers = [p for p in variant.power_names if p != sender and p not in named]
    else:
        to_gm = "GM" in named
        to_powers = [p for p in named if p not in (sender, GM_NAME)]
    if not to_powers and not (to_gm and sender is not None):
        ctx.results.add(f"{what}: refused, it names no one but yourself; the press was "
                        "not sent.")
        return False
    partial = not command.broadcast and bool(to_powers)
    if sender is not None and partial and not partial_allowed(game.settings):
        ctx.results.add(f"{what}: refused, this game allows no partial press (SET NO PARTIAL):"
                        " send it as BROADCAST, or to the GM alone (PRESS TO GM); the press was"
                        " not sent.")
        return False
    shown = _fake_of(variant, command)
    if isinstance(shown, str):
        ctx.results.add(f"{what}: refused, {shown}; the press was not sent.")
        return False
    fake_from, shown_to = shown
    phase = open_phase_of(ctx, game)
    grey = command.grey and sender is not None
    faked = command.fake is not None
    # stored as sent: a power's press that names the GM lists it (reports say "to the GM");
    # fake press is stored as grey press to its true recipients (reports name no sender)
    stored_to = to_powers + ([GM_NAME] if to_gm and sender is not None
                             and not command.broadcast and not command.but else [])
    press_repo.record_press(
        ctx.session, game.id, from_power=sender, from_address=ctx.sender, body=command.body,
        now=ctx.now, to_powers=stored_to, broadcast=command.broadcast,
        anonymous=(grey or faked), phase_id=None if phase is None else phase.id,
        inbound_id=ctx.inbound_id)
    sender_name = sender or "the GM"
    listed = (["everyone"] if command.broadcast
              else to_powers + (["the GM"] if to_gm and not command.but else []))
    to_text = ", ".join(listed)
    shown_text = (to_text if shown_to is None
                  else "everyone" if not shown_to else ", ".join(shown_to))
    shown_sender = fake_from or sender_name
    subject = build_subject("grey press" if grey else f"press from {shown_sender}",
                            game=game.name)
    body = render("press/message.txt.j2", grey=grey, sender=shown_sender, sender_for_gm=None,
                  game=game.name, to=shown_text, body=command.body, service=ctx.service,
                  truth=None)
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
        truth = (f"Fake press: sent by {sender} to {to_text}." if faked else None)
        gm_body = body if not (grey or faked) else render(
            "press/message.txt.j2", grey=grey, sender=shown_sender,
            sender_for_gm=sender if grey else None, game=game.name, to=shown_text,
            body=command.body, service=ctx.service, truth=truth)
        ctx.results.mail.append(Notice((game.gm_address,), subject, gm_body, game.id))
    ctx.results.game = game.name
    kind = "Fake press" if faked else "Grey press" if grey else "Press"
    went = delivered + (["the GM"] if sender is not None else [])
    line = f"{kind} sent to {', '.join(went) if went else 'no one'}."
    if faked:
        line += f" Its recipients see it as from {shown_sender} to {shown_text}."
    if unplayed:
        line += f" Not delivered to {', '.join(unplayed)} (no player)."
    ctx.results.add(line)
    return True


def _powers(variant: Variant, names: tuple[str, ...]) -> list[str] | str:
    """The powers (and GM) `names` stand for, in order, or the first name that is none: a name,
    adjective or one-letter code, or a run of codes (`FRG`: France, Russia, Germany)."""
    out: list[str] = []
    for name in names:
        if name.upper() == GM_NAME:
            found = [GM_NAME]
        elif (power := variant.power(name)) is not None:
            found = [power.name]
        else:
            codes = [variant.power(letter) for letter in name] if len(name) > 1 else [None]
            if any(p is None or len(p.letter) != 1 for p in codes):
                return name
            found = [p.name for p in codes if p is not None]
        out += [p for p in found if p not in out]
    return out


class _Shown(NamedTuple):
    """How a fake press shows itself: as from `sender` (None: its true sender), as sent to
    `to` (None: its true recipients; empty: everyone)."""

    sender: str | None
    to: tuple[str, ...] | None


def _fake_of(variant: Variant, command: Press) -> _Shown | str:
    """How the press shows itself to its recipients, or why its FAKE cannot be."""
    fake = command.fake
    if fake is None:
        return _Shown(None, None)
    if fake.sender is not None:
        if command.grey:
            return "a press is either grey (no sender) or FAKE <power>, not both"
        power = variant.power(fake.sender)
        if power is None:
            return f"{quote(fake.sender)} (after FAKE) is not a power"
        return _Shown(power.name, None)
    if not fake.shown_to:
        return _Shown(None, ())
    shown = _powers(variant, fake.shown_to)
    if isinstance(shown, str):
        return f"{quote(shown)} (after FAKE PARTIAL TO) is not a power"
    return _Shown(None, tuple("the GM" if p == GM_NAME else p for p in shown))


def _order_like(variant: Variant, body: str) -> list[str]:
    """The lines of a press text that read as orders on the game's map."""
    found = []
    for raw in body.splitlines():
        text = " ".join(raw.split())
        if text and len(text) < 80 and not isinstance(
                parse_order(text, variant.map, None, variant.order_kinds), OrderError):
            found.append(text)
    return found


def _unended_note(command: Press, orders: list[str], sent: bool) -> str:
    """What the reply says of a press that had no ENDPRESS."""
    end = {
        PressEnd.SIGNOFF: f"the SIGNOFF on line {command.end_line} ended it",
        PressEnd.SIGNON: f"the SIGNON on line {command.end_line} ended it (that line and those"
                         " after it were read as usual)",
        PressEnd.PRESS: f"the press line on line {command.end_line} ended it",
        PressEnd.MESSAGE: "it ran to the end of the message",
    }[command.ending]
    went = "sent as press" if sent else "taken as its text"
    note = f"The press of line {command.line.number} had no ENDPRESS line: {end}, and all its"
    note += f" lines were {went}."
    if orders:
        quoted = ", ".join(quote(o) for o in orders[:10])
        more = f" and {len(orders) - 10} more" if len(orders) > 10 else ""
        note += (f" These lines in it read as orders and were {went}, not taken as orders:"
                 f" {quoted}{more}. To order, send them again after a line ENDPRESS (or with"
                 " no press).")
    return note


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
    keywords=("PRESS", "BROADCAST", "GREY", "GRAY", "ENDPRESS", "ENDBROADCAST"),
    rules={"press_to": read_press_to, "press_but": read_press_but, "broadcast": read_broadcast,
           "press_grey": read_press_grey, "fake_from": read_fake_from,
           "fake_broadcast": read_fake_broadcast, "fake_partial": read_fake_partial,
           "endpress": read_endpress},
    handle=handle,
    usage=USAGE,
    help=(HelpLines("PRESS", 10, HELP),),
)
