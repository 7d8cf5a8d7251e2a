"""HELP [<topic>]: the command, and its replies: a summary of the commands by topic, written
for players.

`HELP` alone lists the topics; `HELP <topic>` (or `HELP <command>`) gives one. A topic is made
of the lines each command gives it (CommandSpec.help) and the topic's own lines here, put
together by the registry (gm.commands.catalog.HELP_TOPICS). Variants add their own topics
(rules, extra orders) through the `extra` argument of `help_text`.
"""

from __future__ import annotations

import difflib
import re
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import game_rulebook
from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.tables import published
from gm.commands.values import Command
from gm.variants import registry

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.engine.variant import Variant

INDEX = """\
HELP: the commands of this gamemaster

Write one command per line. Upper or lower case does not matter. To play, start with your
SIGNON line; your orders follow it, one per line. For example:

    SIGNON France mygame secret
    A Par-Bur
    A Mar S A Par-Bur
    F Bre-MAO

Send HELP and a topic for more:

    HELP SIGNON     signing on, signing off, resigning
    HELP ORDERS     how to write orders (moves, supports, convoys, retreats, builds)
    HELP PRESS      messages to other powers (PRESS TO, BROADCAST, grey press)
    HELP SET        your settings: password, draw vote, waiting for the deadline,
                    absences, a new address
    HELP GAMES      LIST, HISTORY, SUMMARY, MAP, OBSERVE, STANDBY, and JOIN to play
                    in a new game
    HELP GM         the gamemaster's commands
    HELP DEADLINES  the gamemaster's deadline, press and lateness settings
    HELP RULEBOOK   the rulebook a game plays: 2000 (the default) or 2023

A line repeated in one message is answered once. One reply answers at most 20 lines of HELP,
LIST, HISTORY, MAP, SUMMARY, ORDERS and PREVIEW, within 1 MB and 10 files (unless the service
sets otherwise); the reply lists the lines it left out, to send again.
"""

# The topics (gm.commands.spec.TOPIC_ORDER) are made of the lines every command gives them
# (CommandSpec.help), with those below, which belong to the topic rather than to one command.

HELP_LINES = (
    HelpLines("SIGNON", 10, """\
HELP SIGNON

"""),
    HelpLines("SIGNON", 50, """\

Your password is never shown in replies, nor in their Subject; accented letters match however
your mail program writes them. Change it with SET PASSWORD (HELP SET).
"""),
    HelpLines("ORDERS", 10, """\
HELP ORDERS

After your SIGNON line write one order per line. A new order for a unit replaces the one you
sent before. Units are A (army) and F (fleet); provinces are written by abbreviation (Par, NTH,
StP) or in full (Paris, North Sea, St Petersburg).
Quoted text is not read: lines marked ">", a report pasted below your mail program's "On
... wrote:" line, and in an HTML mail what it hides (display:none, font-size 0).

"""),
    HelpLines("ORDERS", 30, """\

Movement phases:
    A Par-Bur                  move (also A Par - Bur, A Par to Bur)
    A Par H                    hold (a unit without an order holds)
    A Mar S A Par-Bur          support a move
    A Mun S A Ber              support a unit that stays where it is
    F ENG C A Lon-Bre          convoy an army (the army orders A Lon-Bre)
    A Lon-Bre via convoy       move by convoy even where a land route exists
    F StP/nc-Bar               a fleet on a coast: name the coast (StP/nc, StP/sc, Spa/nc,
                               Spa/sc, Bul/ec, Bul/sc); also F Bre-Spa/sc

Retreat phases (only dislodged units):
    A Bur R Par                retreat (A Bur-Par is read the same way)
    A Bur D                    disband

Adjustment phases (Winter):
    Build A Par                build in an owned, empty home supply centre
    Build F StP/nc             a fleet on a split coast names the coast
    Remove A Mun               remove a unit when you have more units than centres
    Waive                      decline one build

"""),
    HelpLines("ORDERS", 70, """\

Variants add orders of their own: HELP and the variant's name tells them.
"""),
    HelpLines("SET", 10, """\
HELP SET

"""),
    HelpLines("SET", 90, """\

When every surviving power still in play (not in civil disorder, not resigned) has voted
SET DRAW, the game ends at once in a draw shared by all surviving powers.

Settings for the gamemaster: HELP DEADLINES.
"""),
    HelpLines("GAMES", 10, """\
HELP GAMES

"""),
    HelpLines("GAMES", 50, """\

"""),
    HelpLines("GAMES", 90, """\

These need no SIGNON. To play in a game that is still forming:

"""),
    HelpLines("GAMES", 120, """\

The password is the one you choose for signing on to the game. With PREFER, the game's
START takes the players who joined so in random order, and each gets the first of their
preferences still free (one whose preferences are all taken gets a free power at random).
"""),
    HelpLines("GM", 10, """\
HELP GM

A game's gamemaster creates it, seats the players and steers it. Create a game with

"""),
    HelpLines("GM", 30, """\

then sign on as its gamemaster with SIGNON GM <game> <password> and use:

"""),
    HelpLines("GM", 180, """\

Deadlines, press and lateness: HELP DEADLINES.
"""),
    HelpLines("GM", 190, """\

From njudge: SET DEADLINE <date>, BECOME, FORCE BEGIN, UNSTART, SET [NO] MANUAL PROCESS,
SET DRAW <powers> and SET CONCEDE <power> work as there. Players are seated with ADD (or
come with JOIN, SIGNON ?<game>), not by the game's password; a player for an abandoned
power comes by STANDBY and REPLACE <power> STANDBY, by REPLACE <power> <address>, or by
TAKEOVER with the password of SET TAKEOVER (njudge's SIGNON to a vacant power is answered
with the TAKEOVER line to send).
njudge's CREATE ?<game>, SIGNON M<game>, SIGNON O<game> (observe), BECOME MASTER,
ROLLBACK [<n>], SET [NO] NMR, EJECT <address>, and LIST, SUMMARY and HISTORY alone after a
SIGNON work here too; PROMOTE is answered with what gm has instead (one GM a game).
"""),
    HelpLines("DEADLINES", 10, """\
HELP DEADLINES

Settings for the gamemaster (after SIGNON GM <game> <password>):

"""),
    HelpLines("DEADLINES", 130, """\

Durations: 48h, 2d, 90m, 1d12h, 36 hours, 2 days 12 hours. Times of day: 20:00 (24-hour
clock, in the game's time zone).

A new game has: movement 72h, retreat 24h, adjustment 24h, no grace, time zone UTC,
press ALL, late HOLD, early processing ON, reminders 12 hours before the deadline.

Once the game has started, everyone in it is told of each change of these settings,
one mail for all the changes of a message (as on njudge; not SET TAKEOVER, whose
password stays yours, nor SET OBSERVERS, whose addresses stay private).
"""),
    HelpLines("RULEBOOK", 10, """\
HELP RULEBOOK

A game plays the 2000 rulebook (the default) or the 2023 rulebook, each as the DATC (v3.0)
makes it precise; every report names it in its first line. The gamemaster chooses it with
CREATE <game> <variant> <password> RULEBOOK 2023, or SET RULEBOOK 2000|2023 before START.

The two differ in two places:
- An army ordered to an adjacent province (A Mar - Spa) while fleets convoy it goes by convoy
  if its order says "via convoy" or a fleet of its own power convoys it, else over land.
  Under 2000, "A Mar - Spa via convoy" with no convoy ordered goes over land; under 2023 it
  goes only by convoy, so it does not move. Under 2023 a convoy order by a fleet that no
  route needs (F WES C A Mar - Spa, where F LYO alone carries it) does not count as intent.
- Removals a power does not order (civil disorder): under 2000 the units farthest from its
  home centres go first, counting the moves each unit could make; under 2023 the units
  farthest from any supply centre it owns, counting provinces of any kind, land or sea.
  Either way, on equal distance fleets go before armies, then in alphabetical order.
Abstraction2 and Deluge II play the 2000 rulebook: their A/F rules replace convoys.
"""),
)

# Other words a player may ask about -> the topic that answers.
ALIASES: dict[str, str] = {
    "SIGNOFF": "SIGNON",
    "RESIGN": "SIGNON",
    "ORDER": "ORDERS",
    "CLEAR": "ORDERS",
    "MOVES": "ORDERS",
    "RETREATS": "ORDERS",
    "BUILDS": "ORDERS",
    "CONVOY": "ORDERS",
    "AHEAD": "ORDERS",
    "BROADCAST": "PRESS",
    "GREY": "PRESS",
    "GRAY": "PRESS",
    "ENDPRESS": "PRESS",
    "ENDBROADCAST": "PRESS",
    "FAKE": "PRESS",
    "PARTIAL": "PRESS",
    "WATCH": "GAMES",
    "WITHDRAW": "SIGNON",
    "HOLIDAY": "SET",
    "PREDICT": "GM",
    "PASSWORD": "SET",
    "DRAW": "SET",
    "WAIT": "SET",
    "LIST": "GAMES",
    "HISTORY": "GAMES",
    "SUMMARY": "GAMES",
    "RECORD": "GAMES",
    "JOIN": "GAMES",
    "GAME": "GAMES",
    "MASTER": "GM",
    "CREATE": "GM",
    "IMPORT": "GM",
    "ADD": "GM",
    "START": "GM",
    "PAUSE": "GM",
    "RESUME": "GM",
    "PROCESS": "GM",
    "PREVIEW": "GM",
    "REPLACE": "GM",
    "EJECT": "GM",
    "ROLLBACK": "GM",
    "REPROCESS": "GM",
    "UNLOCK": "GM",
    "TERMINATE": "GM",
    "REVEAL": "GM",
    "FORCE": "GM",
    "UNSTART": "GM",
    "BECOME": "GM",
    "PROMOTE": "GM",
    "NMR": "DEADLINES",
    "NONMR": "DEADLINES",
    "PREFERENCE": "GAMES",
    "MANUAL": "DEADLINES",
    "CONCEDE": "SET",
    "TAKEOVER": "GAMES",
    "DEADLINE": "DEADLINES",
    "GRACE": "DEADLINES",
    "TIMEZONE": "DEADLINES",
    "LATE": "DEADLINES",
    "EARLY": "DEADLINES",
    "REMIND": "DEADLINES",
    "QUIET": "DEADLINES",
    "GUNBOAT": "DEADLINES",
    "OBSERVERS": "DEADLINES",
    "OBSERVER": "DEADLINES",
    "OBSERVE": "GAMES",
    "MAP": "GAMES",
    "STANDBY": "GAMES",
    "PREFER": "GAMES",
    "ADDRESS": "SET",
    "CONFIRM": "SET",
    "ABSENCE": "SET",
    "AWAY": "SET",
}


@dataclass(frozen=True)
class Help(Command):
    """`HELP` or `HELP <topic>`; the topic words as written (see gm.commands.catalog.help)."""

    topic: str | None = None


def help_text(topic: str | None = None, extra: Mapping[str, str] | None = None) -> str:
    """The reply to `HELP [topic]`.

    `extra` adds topics by name (e.g. a variant's rules, keyed by its name); they are matched
    without regard to case or spaces and listed at the end of the index. An unknown topic gets
    the index, headed by a line saying so.
    """
    # the catalog's tables are made from every command module, this one included
    TOPICS = published().help_topics

    extras = {_key(name): text for name, text in (extra or {}).items()}
    index = INDEX
    if extra:
        index += "\nMore topics: " + ", ".join(f"HELP {name}" for name in extra) + "\n"
    if topic is None or not topic.strip():
        return fit(index)
    key = _key(topic)
    if key in extras:  # a variant's rules, as the variant writes them
        return extras[key]
    words = topic.upper().split()
    # "HELP SET DEADLINE" is about DEADLINE: try the words from the last one back.
    for word in [key, *reversed(words)]:
        if word in TOPICS:
            return fit(TOPICS[word])
        if word in ALIASES:
            return fit(TOPICS[ALIASES[word]])
    names = {**{t: f"HELP {t}" for t in (*TOPICS, *ALIASES)},
             **{_key(name): f"HELP {name}" for name in extra or {}}}
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.7)
    hint = f" (did you mean {names[close[0]]}?)" if close else ""
    return fit(f'There is no help on "{topic.strip()[:60]}"{hint}; here are the topics.\n\n'
               + index)


# The widest line of a HELP reply: mail is read at 72 to 78 columns (gm.play.render.WIDTH).
WIDTH = 78
_GAP = re.compile(r"\S(\s{2,})(?=\S)")


def fit(text: str, width: int = WIDTH) -> str:
    """`text` with its lines over `width` wrapped once, as the reader sees them: a paragraph
    (lines from the margin) is refilled whole, a row of a table (`    KEY    what it does`)
    with its lines hung under its second column, an item (`- ...`) with its indented lines.
    Whatever fits is kept as written, and so are blank lines and examples (a line that starts
    with a command, or follows one ending in a colon). The reply's own wrapping
    (gm.play.render.wrap_lines) then finds nothing to do."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            out.append(line)
            i += 1
            continue
        first, hang, goes_on = _shape(line)
        table = line.startswith(" ")  # examples stand on their own lines in tables only
        run = [line]
        i += 1
        while (i < len(lines) and lines[i].strip() and goes_on(lines[i]) and not (
                table and (run[-1].rstrip().endswith(":") or _example(lines[i])))):
            run.append(lines[i])
            i += 1
        if all(len(r) <= width for r in run):
            out += run
            continue
        words = " ".join([run[0][len(first):], *(r.strip() for r in run[1:])])
        out.append(textwrap.fill(words, width, initial_indent=first, subsequent_indent=hang,
                                 break_long_words=False, break_on_hyphens=False))
    return "\n".join(out)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _shape(line: str) -> tuple[str, str, Callable[[str], bool]]:
    """How a run of lines starting with `line` is refilled: its first line's lead, the lead of
    the others, and which lines go on it."""
    if line.startswith("- "):
        return "- ", "  ", lambda other: _indent(other) == 2
    if not line.startswith(" "):
        return "", "", lambda other: not other.startswith((" ", "- "))
    gap = _GAP.search(line)
    if gap is None or gap.end() > WIDTH // 2 + 8:  # no second column, or too far right
        lead = line[: _indent(line)]
        if _example(line):  # it stands alone
            return lead, lead, lambda other: False
        return lead, lead, lambda other: _indent(other) == len(lead)
    own = _indent(line)
    return line[: gap.end()], " " * gap.end(), lambda other: _indent(other) > own


def _example(line: str) -> bool:
    """Whether `line` shows a command (kept on its own line)."""
    words = line.split()
    return bool(words) and words[0] in published().keywords


def _key(name: str) -> str:
    return "".join(name.upper().split())


def read_help(c: list[Token]) -> Draft:
    topic = joined(c) or None
    return Draft(lambda line: Help(line, topic))


def handle(ctx: Context, command: Help) -> None:
    """`HELP`, `HELP <topic>`, `HELP <variant>` (any of the variant's names): the variant's
    rules and the rulings this service plays them by; else the reply on the commands."""
    topic = command.topic
    canonical = registry.canonical_name(topic) if topic and topic.strip() else None
    if canonical is not None:
        ctx.results.add(*_variant_help(registry.get_variant(canonical)).splitlines())
        return
    topics = {v.title: _variant_help(v) for v in map(registry.get_variant, registry.names())}
    ctx.results.add(*help_text(topic, topics).splitlines())
    if ctx.signed is not None and (not topic or not topic.strip()
                                   or topic.strip().upper() == "RULEBOOK"):
        game = ctx.signed.game
        ctx.results.add(f"{game.name} plays the {game_rulebook(game)} rulebook.")


def _variant_help(variant: Variant) -> str:
    return variant.help or f"{variant.title}: the standard rules of Diplomacy (HELP ORDERS)."


COMMAND = CommandSpec(
    value=Help,
    keywords=("HELP",),
    rules={"help": read_help},
    handle=handle,
    usage={
        "HELP": "HELP may name a topic: HELP or HELP ORDERS",
    },
    without_signon=True,
    answers_only=True,
    help=HELP_LINES,
)
