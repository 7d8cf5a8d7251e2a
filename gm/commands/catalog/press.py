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
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import refresh, variant_of
from gm.commands.press_heading import FORMS, Fake, Heading, read_heading
from gm.commands.reading import Draft, Invalid, quote
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command, Line, Unreadable
from gm.engine.errors import OrderError
from gm.notation import parse_order
from gm.play import press

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.engine.variant import Variant
    from gm.store.rows import GameRecord


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
    """Send the press (gm.play.press); whether it was sent (else the reply says why not)."""
    what = str(command.line)
    signed = ctx.signed
    if signed is None:
        return _refuse(ctx, what, "sign on first (SIGNON <power> <game> <password>)")
    game = refresh(ctx, signed.game)
    fake = command.fake
    asked = press.PressAsked(
        command.recipients, command.broadcast, command.body, but=command.but,
        grey=command.grey, white=command.white, fake=fake is not None,
        fake_to=() if fake is None else fake.shown_to, fake_but=fake is not None and fake.but)
    done = press.send_press(ctx.session, game, signed.power, ctx.sender, asked, now=ctx.now,
                            service=ctx.service, inbound_id=ctx.inbound_id)
    if isinstance(done, press.PressRefused):
        return _refuse(ctx, what, _refusal(game, done), " Press to the GM alone (PRESS TO GM) "
                       "is always allowed." if done.press_none and done.why in _POLICY else "")
    ctx.results.mail.extend(done.mail)
    ctx.results.game = game.name
    went = list(done.delivered) + (["the GM"] if done.to_gm else [])
    went += [f"the observers ({done.watching})"] if done.watching else []
    line = f"{done.kind.value} sent to {', '.join(went) if went else 'no one'}."
    if done.kind is press.PressKind.FAKE:
        line += f" Its recipients see it as sent to {done.shown_to}."
    if done.gm_copy:
        line += " The GM gets a copy (SET ALL PRESS)."
    if done.unplayed:
        line += f" Not delivered to {', '.join(done.unplayed)} (no player)."
    if done.gm_only and signed.power is not None and _gm_letters(command.recipients):
        line += (" PRESS TO GM goes to the GM alone (on njudge it is Germany and the Master):"
                 " for press to Germany and the GM, write PRESS TO G M (or PRESS TO Germany,"
                 " GM).")
    notes = (["FAKE does not apply to press to the GM alone: sent as it is."]
             if done.fake_dropped else [])
    notes += (["Press to the GM alone is always signed (as on njudge): sent with your name."]
              if done.signed else [])
    ctx.results.add(" ".join([line, *notes]))
    return True


def _gm_letters(names: tuple[str, ...]) -> bool:
    """Whether `names` is the one word GM (njudge reads it as G and M)."""
    return len(names) == 1 and names[0].upper() == press.GM_NAME


# the refusals of the game's press settings (SET PRESS, SET NO PARTIAL, SET FAKE)
_POLICY = frozenset({press.PressRefusal.NO_PRESS, press.PressRefusal.WHITE_ONLY,
                     press.PressRefusal.GREY_ONLY, press.PressRefusal.NO_PARTIAL,
                     press.PressRefusal.NO_FAKE})


def _refusal(game: GameRecord, refused: press.PressRefused) -> str:
    """Why the press was not sent, as the reply says it."""
    why = press.PressRefusal
    if refused.why is why.NOT_A_POWER:
        powers = ", ".join(variant_of(game).power_names)
        return (f"{refused.name!r} is not a power of {game.name} (powers: {powers}, or their "
                f"letters; M or GM the GM, O the observers). The headings read are {FORMS}")
    if refused.why is why.FAKE_NOT_A_POWER:
        return f"{quote(refused.name)} (after FAKE) is not a power"
    return {
        why.FINISHED: f"{game.name} is finished",
        why.NO_ONE: "it names no one but yourself",
        why.PAUSED: f"{game.name} is paused: until the GM resumes it, press goes to the GM "
                    "alone (PRESS TO GM), as on njudge",
        why.NO_PRESS: "this game allows no press (SET PRESS NONE)",
        why.WHITE_ONLY: "this game allows only signed press (SET PRESS WHITE); send it without "
                        "GREY",
        why.GREY_ONLY: "this game allows only grey press (SET PRESS GREY); send it without "
                       "WHITE",
        why.NO_PARTIAL: "this game allows no partial press (SET NO PARTIAL): send it as "
                        "BROADCAST, or to the GM alone (PRESS TO GM)",
        why.NO_FAKE: "this game allows no fake press (the GM allows it with SET FAKE); send it "
                     "without FAKE",
    }[refused.why]


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


COMMAND = CommandSpec(
    value=Press,
    keywords=("PRESS", "BROADCAST", "GREY", "GRAY", "ENDPRESS", "ENDBROADCAST"),
    rules={"endpress": read_endpress},
    handle=handle,
    usage=USAGE,
    help=(HelpLines("PRESS", 10, HELP),),
)
