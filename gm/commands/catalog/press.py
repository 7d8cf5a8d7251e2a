"""PRESS / BROADCAST headings (njudge's forms: gm.commands.press_heading), the text, then
ENDPRESS: a message to other powers, the GM (M) or the observers (O).

Which press a game allows is its press setting (SET PRESS, or njudge's SET WHITE, SET GREY,
SET NO PRESS): NONE forbids press between players, WHITE allows only signed press, GREY only
grey (anonymous) press, ALL both; SET NO PARTIAL allows only press to everyone (or the GM),
SET FAKE allows fake press (the recipient list faked, never the sender). Press to the GM alone
is always allowed, also while the game is paused (when all other press is refused, as on
njudge). Each recipient gets a separate message (addresses stay private). The GM gets
broadcasts and press addressed to the GM; the players' partial press only under SET ALL PRESS.
Broadcasts reach the observers when sent.

A press runs to its ENDPRESS (or ENDBROADCAST): every line before it, one that reads as another
press heading, an order or a command too, is its text (njudge). Press is never dropped for want
of its ENDPRESS: SIGNOFF or the end of the message ends it (also a SIGNON line, whose password
is sent to no one); the reply says so, and quotes the lines in it that read as orders or
commands (sent as press, not taken). Under a heading that cannot be read nothing is sent and
nothing is taken, up to its ENDPRESS (gm.commands.parse).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from lark import Token

from gm.commands.handlers.common import open_phase_of, refresh, variant_of
from gm.commands.handlers.press_settings import all_press, fake_allowed, partial_allowed
from gm.commands.press_heading import FORMS, Fake, Heading, read_heading
from gm.commands.reading import Draft, Invalid, quote
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command, Line, Unreadable
from gm.engine.errors import OrderError
from gm.mail.compose import build_subject
from gm.notation import parse_order
from gm.play.observers import observers
from gm.play.render import render
from gm.policies import PressPolicy
from gm.store import powers as powers_repo
from gm.store import press as press_repo
from gm.store.outgoing import Outgoing
from gm.store.press import GM_COPY, OBSERVERS
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.engine.variant import Variant

GM_NAME = "GM"
# Marks among a stored press's recipients: the observers were sent it; the GM got a copy of
# partial press between players (SET ALL PRESS).



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
                               Turkey (M is the GM, O the observers)
    PRESS +IAT                 the same (njudge's form)
    PRESS TO ALL BUT Russia    to everyone but those named: the other
                               powers, the GM and the observers
    PRESS -RO                  to all but Russia and the observers
    PRESS TO GM                to the gamemaster alone (njudge reads GM as
                               Germany and the Master: PRESS TO G M here)
    BROADCAST                  to everyone, observers too (PRESS TO ALL)
    BROADCAST TO Italy         as PRESS TO Italy
    PRESS TO Italy GREY        grey press: sent without your name, where
                               the game allows it (GRAY, ANONYMOUS too;
                               GREY PRESS TO Italy is the same)
    PRESS TO Italy WHITE       signed press (UNANONYMOUS too)
    PRESS GREY                 grey press to everyone (GREY BROADCAST)

The text is sent exactly as written: every line up to ENDPRESS is text,
also one that reads as a press line, an order or a command. A press
message without its ENDPRESS is still sent: it ends at SIGNOFF, at the
next SIGNON line, or at the end of the mail, and the reply says so and
quotes the lines in it that read as orders or commands (sent as press
text, not taken). Under a press line that cannot be read nothing is sent
and nothing is taken up to its ENDPRESS: the reply quotes it. A line
PRESS with nothing after it sends nothing, as on njudge.

Where the gamemaster allows fake press (SET FAKE), FAKE changes whom the
press is shown as sent to, never its sender (white press always names
its sender; for press without your name, write GREY):
    PRESS TO FR FAKE           shown to France and Russia as a broadcast
    PRESS TO F FAKE TO FG      shown to France as sent to France, Germany
    PRESS FAKE TO G            sent to everyone, shown as sent to Germany
    PRESS TO F FAKE -G         shown as sent to all but Germany
The gamemaster's copy, where the GM gets one, names the true recipients,
and the phase reports list fake press as grey press. Where the gamemaster
forbids partial press (SET NO PARTIAL), press goes to everyone (BROADCAST)
or to the GM.
While the game is paused press goes to the GM alone.

The gamemaster gets broadcasts and press to the GM, grey press with its
sender named. The players' press to some powers only reaches the GM only
where the GM has set SET ALL PRESS, and every player is told when that
changes.
"""

# What each of the press keywords needs (told when its line cannot be read).
USAGE: dict[str, str] = {
    "PRESS": f"the press headings read are {FORMS}",
    "BROADCAST": f"the press headings read are {FORMS}",
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


@dataclass
class OpenPress:
    """A press heading whose end has not been read yet (gm.commands.parse keeps the lines after
    it verbatim, up to ENDPRESS or whatever else ends it: PressEnd)."""

    line: Line
    heading: Heading
    body: list[str] = field(default_factory=list)

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
        h = self.heading
        return Press(self.line, h.recipients, h.broadcast, h.grey, "\n".join(lines),
                     end_line, ending, h.but, h.fake, h.white)


def open_press(line: Line) -> OpenPress | Unreadable:
    """The press that the heading `line` opens, or why the heading cannot be read."""
    try:
        return OpenPress(line, read_heading(line.text))
    except Invalid as error:
        keyword = line.text.split(" ", 1)[0].upper()
        return Unreadable(line, f"Cannot read {quote(line.text)}: {error}", keyword)


@dataclass(frozen=True)
class Press(Command):
    """A press message: its heading (`PRESS TO France, Germany`, `BROADCAST`, `PRESS +FG`...),
    its text, then `ENDPRESS`.

    `recipients` are the names as written (empty for a broadcast; with `but`, the ones left
    out); `grey` and `white` what the heading asks (neither: the game's default); `body` is
    the text between the two lines, verbatim except that blank lines around it are dropped.
    `ending` says what ended it at line `end_line` (0: the end of the message).
    """

    recipients: tuple[str, ...]
    broadcast: bool
    grey: bool
    body: str
    end_line: int
    ending: PressEnd = PressEnd.ENDPRESS
    but: bool = False
    fake: Fake | None = None
    white: bool = False
    command_lines: tuple[str, ...] = ()  # of a press with no ENDPRESS: lines read as commands


def read_endpress(c: list[Token]) -> Draft:
    raise Invalid(USAGE["ENDPRESS"])


def handle(ctx: Context, command: Press) -> None:
    """Send the press (or say why not); of a press that had no ENDPRESS, say where it ended
    and quote the lines in it that read as orders."""
    sent = _send(ctx, command)
    if command.ending is not PressEnd.ENDPRESS and ctx.signed is not None:
        orders = _order_like(variant_of(ctx.signed.game), command.body)
        ctx.results.add(_unended_note(command, orders, sent))


def _refuse(ctx: Context, what: str, reason: str, more: str = "") -> bool:
    """Say why the press was not sent (nothing under its heading was taken either)."""
    ctx.results.add(f"{what}: refused, {reason}; the press was not sent.{more} Nothing under it"
                    " was taken as orders or commands either.")
    return False


def _send(ctx: Context, command: Press) -> bool:
    """Send the press; whether it was sent (else the reply says why not)."""
    what = str(command.line)
    signed = ctx.signed
    if signed is None:
        return _refuse(ctx, what, "sign on first (SIGNON <power> <game> <password>)")
    game = refresh(ctx, signed.game)
    if game.status is GameStatus.FINISHED:
        return _refuse(ctx, what, f"{game.name} is finished")
    sender = signed.power  # None: the GM
    variant = variant_of(game)
    named = _addressees(variant, command.recipients)
    if isinstance(named, str):
        return _refuse(ctx, what, f"{named!r} is not a power of {game.name} (powers:"
                       f" {', '.join(variant.power_names)}, or their letters; M or GM the GM,"
                       f" O the observers). The headings read are {FORMS}")
    everyone = command.broadcast
    if everyone:
        to_powers = [p for p in variant.power_names if p != sender]
        to_gm = to_observers = True
    elif command.but:
        to_powers = [p for p in variant.power_names if p != sender and p not in named.powers]
        to_gm, to_observers = not named.gm, not named.observers
    else:
        to_powers = [p for p in named.powers if p != sender]
        to_gm, to_observers = named.gm, named.observers
    to_gm = to_gm and sender is not None
    gm_only = to_gm and not to_powers and not to_observers and not everyone
    if not to_powers and not to_gm and not to_observers:
        return _refuse(ctx, what, "it names no one but yourself")
    settings = game.settings
    fake = command.fake
    notes: list[str] = []
    if sender is not None and gm_only and fake is not None:
        notes.append("FAKE does not apply to press to the GM alone: sent as it is.")
        fake = None
    if sender is not None and gm_only and command.grey:
        notes.append("Press to the GM alone is always signed (as on njudge): sent with your"
                     " name.")
    if sender is not None and not gm_only:
        if game.status is GameStatus.PAUSED:
            return _refuse(ctx, what, f"{game.name} is paused: until the GM resumes it, press"
                           " goes to the GM alone (PRESS TO GM), as on njudge")
        reason = _refusal(settings.press, command.grey, command.white)
        if reason is None and not everyone and not partial_allowed(settings):
            reason = ("this game allows no partial press (SET NO PARTIAL): send it as"
                      " BROADCAST, or to the GM alone (PRESS TO GM)")
        if reason is None and fake is not None and not fake_allowed(settings):
            reason = ("this game allows no fake press (the GM allows it with SET FAKE); send"
                      " it without FAKE")
        if reason is not None:
            return _refuse(ctx, what, reason, " Press to the GM alone (PRESS TO GM) is always"
                           " allowed." if settings.press is PressPolicy.NONE else "")
    shown = _shown_to(variant, fake)
    if isinstance(shown, _Unshown):
        return _refuse(ctx, what, shown.reason)
    # grey: asked for, or the game's only kind; press to the GM alone is always white (njudge)
    grey = sender is not None and not gm_only and (
        command.grey or (not command.white and settings.press is PressPolicy.GREY))
    # the GM reads partial press between players only where SET ALL PRESS says so (njudge)
    gm_copy = sender is not None and not to_gm and all_press(settings)
    phase = open_phase_of(ctx, game)
    stored_to = list(to_powers) if not everyone else []
    if not everyone:
        stored_to += ([GM_NAME] if to_gm else []) + ([OBSERVERS] if to_observers else [])
        stored_to += [GM_COPY] if gm_copy else []
    press_repo.record_press(
        ctx.session, game.id, from_power=sender, from_address=ctx.sender, body=command.body,
        now=ctx.now, to_powers=stored_to, broadcast=everyone,
        anonymous=(grey or fake is not None), phase_id=None if phase is None else phase.id,
        inbound_id=ctx.inbound_id)
    sender_name = sender or "the GM"
    listed = (["everyone"] if everyone
              else to_powers + (["the GM"] if to_gm else [])
              + (["the observers"] if to_observers else []))
    to_text = ", ".join(listed)
    shown_text = to_text if shown is None else _listed(shown)
    subject = build_subject("grey press" if grey else f"press from {sender_name}",
                            game=game.name)
    body = render("press/message.txt.j2", grey=grey, sender=sender_name, sender_for_gm=None,
                  game=game.name, to=shown_text, body=command.body, service=ctx.service,
                  truth=None)
    addresses = {p.name: p.addresses for p in powers_repo.list_powers(ctx.session, game.id)}
    delivered: list[str] = []
    unplayed: list[str] = []
    for name in to_powers:
        (delivered if addresses.get(name) else unplayed).append(name)
        for address in addresses.get(name, ()):
            ctx.results.mail.append(Outgoing((address,), subject, body, game.id))
    watching = observers(game) if to_observers else []
    for address in watching:
        ctx.results.mail.append(Outgoing((address,), subject, body, game.id))
    if to_gm or gm_copy:  # the GM's copy names the sender of grey press, the truth of fake
        truth = (f"Fake press: sent by {sender} to {to_text}." if fake is not None
                 else None)
        if gm_copy and truth is None:
            truth = f"Your copy (SET ALL PRESS): sent by {sender} to {to_text}."
        gm_body = body if not (grey or truth) else render(
            "press/message.txt.j2", grey=grey, sender=sender_name,
            sender_for_gm=sender if grey else None, game=game.name, to=shown_text,
            body=command.body, service=ctx.service, truth=truth)
        ctx.results.mail.append(Outgoing((game.gm_address,), subject, gm_body, game.id))
    ctx.results.game = game.name
    kind = "Fake press" if fake is not None else "Grey press" if grey else "Press"
    went = delivered + (["the GM"] if to_gm else [])
    went += [f"the observers ({len(watching)})"] if watching else []
    line = f"{kind} sent to {', '.join(went) if went else 'no one'}."
    if fake is not None:
        line += f" Its recipients see it as sent to {shown_text}."
    if gm_copy:
        line += " The GM gets a copy (SET ALL PRESS)."
    if unplayed:
        line += f" Not delivered to {', '.join(unplayed)} (no player)."
    if gm_only and sender is not None and _gm_letters(command.recipients):
        line += (" PRESS TO GM goes to the GM alone (on njudge it is Germany and the Master):"
                 " for press to Germany and the GM, write PRESS TO G M (or PRESS TO Germany,"
                 " GM).")
    ctx.results.add(" ".join([line, *notes]))
    return True


class _Named(NamedTuple):
    """The addressees of a press list: powers, the GM (M, GM), the observers (O)."""

    powers: list[str]
    gm: bool
    observers: bool


def _addressees(variant: Variant, names: tuple[str, ...]) -> _Named | str:
    """The powers, GM and observers `names` stand for, or the first name that is none: a power's
    name, adjective or letter, GM, or a run of letters (`FRG`: France, Russia, Germany; M the
    GM and O the observers in every variant, as on njudge)."""
    powers: list[str] = []
    gm = watchers = False
    for name in names:
        upper = name.upper()
        if upper == GM_NAME or upper == "M":
            gm = True
            continue
        if upper == "O":
            watchers = True
            continue
        power = variant.power(name)
        if power is not None:
            found = [power]
        else:
            if len(name) < 2:
                return name
            found = []
            for letter in upper:
                if letter == "M":
                    gm = True
                elif letter == "O":
                    watchers = True
                elif (p := variant.power(letter)) is not None and len(p.letter) == 1:
                    found.append(p)
                else:
                    return name
        powers += [p.name for p in found if p.name not in powers]
    return _Named(powers, gm, watchers)


def _gm_letters(names: tuple[str, ...]) -> bool:
    """Whether `names` is the one word GM (njudge reads it as G and M)."""
    return len(names) == 1 and names[0].upper() == GM_NAME


class _Unshown(NamedTuple):
    reason: str


class _Shown(NamedTuple):
    """Whom a fake press shows itself as sent to: `to` (empty: everyone); with `but`, all
    but them."""

    to: tuple[str, ...]
    but: bool


def _shown_to(variant: Variant, fake: Fake | None) -> _Shown | _Unshown | None:
    """Whom a faked press is shown as sent to (None: not faked), or why its FAKE cannot be."""
    if fake is None:
        return None
    if not fake.shown_to:
        return _Shown((), False)
    named = _addressees(variant, fake.shown_to)
    if isinstance(named, str):
        return _Unshown(f"{quote(named)} (after FAKE) is not a power")
    return _Shown(tuple(named.powers + (["the GM"] if named.gm else [])
                        + (["the observers"] if named.observers else [])), fake.but)


def _listed(shown: _Shown) -> str:
    if not shown.to:
        return "everyone"
    return ("all but " if shown.but else "") + ", ".join(shown.to)


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
    if command.command_lines:
        lines = command.command_lines
        quoted = ", ".join(quote(c) for c in lines[:10])
        more = f" and {len(lines) - 10} more" if len(lines) > 10 else ""
        note += (f" These lines in it read as commands and were {went} text, not taken as"
                 f" commands: {quoted}{more}. To give them, send them again after a line"
                 " ENDPRESS.")
    if not orders and not command.command_lines:
        note += " A press ends with a line ENDPRESS (or ENDBROADCAST, or SIGNOFF)."
    return note


def _refusal(policy: PressPolicy, grey: bool, white: bool) -> str | None:
    """Why the game's press setting forbids this press, or None if it allows it."""

    if policy is PressPolicy.NONE:
        return "this game allows no press (SET PRESS NONE)"
    if grey and policy is PressPolicy.WHITE:
        return "this game allows only signed press (SET PRESS WHITE); send it without GREY"
    if white and policy is PressPolicy.GREY:
        return "this game allows only grey press (SET PRESS GREY); send it without WHITE"
    return None


COMMAND = CommandSpec(
    value=Press,
    keywords=("PRESS", "BROADCAST", "GREY", "GRAY", "ENDPRESS", "ENDBROADCAST"),
    rules={"endpress": read_endpress},
    handle=handle,
    usage=USAGE,
    help=(HelpLines("PRESS", 10, HELP),),
)
