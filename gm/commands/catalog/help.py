"""HELP [<topic>]: the command, and its replies: a summary of the commands by topic, written
for players.

`HELP` alone lists the topics; `HELP <topic>` (or `HELP <command>`) gives one. Variants add
their own topics (rules, extra orders) through the `extra` argument of `help_text`.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.catalog.press import HELP as PRESS
from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec
from gm.commands.values import Command

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
"""

SIGNON = """\
HELP SIGNON

    SIGNON <power> <game> <password>      SIGNON France mygame secret
    SIGNON <letter><game> <password>      SIGNON Fmygame secret

The second form uses the power's one-letter code: A E F G I R T for Austria, England, France,
Germany, Italy, Russia, Turkey (in Chaos II each power has its own code, shown in the
variant's help). A power name of two words is written as it is: SIGNON St Petersburg mygame
secret.

Everything after a SIGNON line is for that power: orders, one per line, and commands, until
the next SIGNON line or the end of the message. A message may hold several SIGNON lines (for
example a gamemaster who also plays a power).

    SIGNOFF      the rest of the message is ignored (useful above a signature)
    RESIGN       leave the game for good

Your password is never shown in replies. Change it with SET PASSWORD (HELP SET).
"""

ORDERS = """\
HELP ORDERS

After your SIGNON line write one order per line. A new order for a unit replaces the one you
sent before. Units are A (army) and F (fleet); provinces are written by abbreviation (Par, NTH,
StP) or in full (Paris, North Sea, St Petersburg).

    CLEAR                      remove all your orders for the current phase

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

Orders ahead, for the next phase of a kind, sent while another phase is open:
    AHEAD RETREAT A Bur-Pic    a retreat for the coming retreat phase
    AHEAD BUILD Build A Par    a build for the coming adjustment phase (also ADJUSTMENT)
    AHEAD MOVEMENT A Par-Bur   a move for the next movement phase
    AHEAD CLEAR                withdraw the orders sent ahead
They are checked when that phase opens: those the board allows become your orders for it
(you may still change them); you are told which could not be used, and why. Retreats and
builds sent ahead are for the coming ones before the next movement phase, and lapse if none
comes (no unit dislodged, no adjustment).

Variants add orders of their own: HELP and the variant's name tells them.
"""

SET = """\
HELP SET

    SET PASSWORD <new>         change your password: SET PASSWORD newsecret
    SET DRAW                   vote for a draw among the powers still in the game
    SET NO DRAW                take your draw vote back
    SET WAIT                   keep the game waiting for the deadline even when every power
                               has ordered (when the game processes early); it holds for
                               the current phase only
    SET NO WAIT                undo SET WAIT (also SET NOWAIT)
    SET ABSENCE <from> TO <to>  days you are away (first and last, year-month-day):
                               SET ABSENCE 2026-03-05 TO 2026-03-08
                               deadlines that fall within move past it, to the same
                               time of day; everyone is told (the GM sets how many
                               days each power may claim: 14 unless set)
    SET NO ABSENCE             withdraw your absences from today on (also SET NOABSENCE)
    SET ADDRESS <new>          move to a new address in every game you play, master,
                               observe or stand by for, keeping your passwords:
                               SET ADDRESS new@example.org
                               (send it from your old address; a code goes to the
                               new one, and nothing changes until the new address
                               sends it back within 7 days)
    SET ADDRESS CONFIRM <code>  from the new address: make the move

When every surviving power still in play (not in civil disorder, not resigned) has voted
SET DRAW, the game ends at once in a draw shared by all surviving powers.

Settings for the gamemaster: HELP DEADLINES.
"""

GAMES = """\
HELP GAMES

    LIST                       the games on this server
    LIST <game>                the details of one game
    HISTORY <game>             the results of a game's past phases
    HISTORY <game> <phase>     one phase, for example:
                               HISTORY mygame S1901M
                               HISTORY mygame Spring 1901, Movement
    SUMMARY <game>             a summary of a game, for example:
                               SUMMARY mygame

    MAP <game> [<phase>]       the picture of the board, now or at the start of a
                               phase, attached to the reply:
                               MAP mygame
                               MAP mygame F1901M
    OBSERVE <game>             get the report of every phase (and the start mail)
                               as an observer: OBSERVE mygame
    OBSERVE <game> OFF         stop it: OBSERVE mygame OFF
    STANDBY <game>             offer to take over a power that loses its player:
                               STANDBY mygame
    STANDBY                    the same for any game
    STANDBY [<game>] OFF       withdraw the offer (STANDBY OFF: every offer)

These need no SIGNON. To play in a game that is still forming:

    JOIN <game> <password>             take any free power: JOIN mygame secret
    JOIN <power> <game> <password>     ask for a power, for example:
                                       JOIN France mygame secret
    SIGNON ?<game> <password>          the same as JOIN <game> <password>
    JOIN <game> <password> PREFER <powers>
                                       get a power at START by your preferences:
                                       JOIN mygame secret PREFER France, Italy

The password is the one you choose for signing on to the game. With PREFER, the game's
START takes the players who joined so in random order, and each gets the first of their
preferences still free (one whose preferences are all taken gets a free power at random).
"""

GM = """\
HELP GM

A game's gamemaster creates it, seats the players and steers it. Create a game with

    CREATE <game> <variant> <password>     CREATE mygame Standard secret
                                           CREATE mygame Deluge II secret
    ... RULEBOOK 2000|2023                 the rulebook it plays (HELP RULEBOOK):
                                           CREATE mygame Standard secret RULEBOOK 2023

then sign on as its gamemaster with SIGNON GM <game> <password> and use:

    ADD <power> <address> [password]       seat a player, for example:
                                           ADD France ann@example.org secret
                                           (without a password one is made); the
                                           player is mailed the power and password
    ADD OBSERVER <address>                 someone who gets the public report of
                                           every phase (also SET OBSERVERS)
    START                                  start the game
    PAUSE                                  stop the deadlines (no orders are taken)
    RESUME                                 start them again: the phase gets back the
                                           time it had left; everyone is told
    PROCESS                                process the current phase now
    PREVIEW                                show what processing now would give
    REPLACE <power> <address> [password]   a new player takes over a power, e.g.
                                           REPLACE France bob@example.org newsecret
                                           (without a password a new one is made and
                                           sent to the new player; the old one stops
                                           working either way)
    REPLACE <power> STANDBY                the first player standing by (STANDBY)
                                           takes the power: REPLACE France STANDBY
    EJECT <power>                          remove a power's player (its password stops
                                           working; the power is in civil disorder):
                                           EJECT France
    ROLLBACK <phase>                       return to a phase, for example:
                                           ROLLBACK S1901M
                                           ROLLBACK Spring 1901, Movement
    UNLOCK <power> | GM | ALL              forget the wrong passwords that throttle
                                           sign-ons to a power (or the GM, or all):
                                           UNLOCK France
    TERMINATE                              end the game; everyone is told
    SET RULEBOOK 2000|2023                 the rulebook, before START (HELP RULEBOOK)

Deadlines, press and lateness: HELP DEADLINES.
"""

DEADLINES = """\
HELP DEADLINES

Settings for the gamemaster (after SIGNON GM <game> <password>):

    SET DEADLINE <type> <time>     how long each phase lasts, or when it ends:
                                   SET DEADLINE MOVEMENT 48h
                                   SET DEADLINE RETREAT 24h
                                   SET DEADLINE ADJUSTMENT 1d12h
                                   SET DEADLINE ALL 2d
                                   SET DEADLINE MOVEMENT 20:00  (at the next 20:00)
                                   without a type the time is for every phase
    SET GRACE <duration>           extra time for late powers: SET GRACE 12h
                                   (SET GRACE 0h: none)
    SET TIMEZONE <zone>            the game's clock: SET TIMEZONE Europe/Paris
    SET PRESS NONE|WHITE|GREY|ALL  what press is allowed: none, signed only,
                                   anonymous only, or both
    SET LATE HOLD                  at the deadline late powers' units hold
    SET LATE WAIT                  the game waits until every power has ordered
    SET LATE DISORDER [AFTER n]    as HOLD, and a power that misses n deadlines in a row
                                   (1 if not given) is put in civil disorder
    SET EARLY ON|OFF               process as soon as every power has ordered
    SET REMIND <duration>|ON|OFF   remind powers without orders this long before the
                                   deadline (ON: 12 hours, the default; OFF: never)
    SET OBSERVERS <address> ...    who gets the observers' report of every phase (the
                                   whole list; SET OBSERVERS NONE empties it)
    ADD OBSERVER <address>         one more observer
    SET OBSERVE ON|OFF             whether anyone may OBSERVE the game (ON unless set)
    SET ABSENCE LIMIT <days>|OFF   the days of absence each power may claim (SET
                                   ABSENCE): SET ABSENCE LIMIT 14 (OFF: none)

Durations: 48h, 2d, 90m, 1d12h, 36 hours, 2 days 12 hours. Times of day: 20:00 (24-hour
clock, in the game's time zone).

A new game has: movement 72h, retreat 24h, adjustment 24h, no grace, time zone UTC,
press ALL, late HOLD, early processing ON, reminders 12 hours before the deadline.
"""

RULEBOOK = """\
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
"""

TOPICS: dict[str, str] = {
    "SIGNON": SIGNON,
    "ORDERS": ORDERS,
    "PRESS": PRESS,
    "SET": SET,
    "GAMES": GAMES,
    "GM": GM,
    "DEADLINES": DEADLINES,
    "RULEBOOK": RULEBOOK,
}

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
    "PASSWORD": "SET",
    "DRAW": "SET",
    "WAIT": "SET",
    "LIST": "GAMES",
    "HISTORY": "GAMES",
    "SUMMARY": "GAMES",
    "JOIN": "GAMES",
    "GAME": "GAMES",
    "MASTER": "GM",
    "CREATE": "GM",
    "ADD": "GM",
    "START": "GM",
    "PAUSE": "GM",
    "RESUME": "GM",
    "PROCESS": "GM",
    "PREVIEW": "GM",
    "REPLACE": "GM",
    "EJECT": "GM",
    "ROLLBACK": "GM",
    "UNLOCK": "GM",
    "TERMINATE": "GM",
    "DEADLINE": "DEADLINES",
    "GRACE": "DEADLINES",
    "TIMEZONE": "DEADLINES",
    "LATE": "DEADLINES",
    "EARLY": "DEADLINES",
    "REMIND": "DEADLINES",
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
    extras = {_key(name): text for name, text in (extra or {}).items()}
    index = INDEX
    if extra:
        index += "\nMore topics: " + ", ".join(f"HELP {name}" for name in extra) + "\n"
    if topic is None or not topic.strip():
        return index
    key = _key(topic)
    if key in extras:
        return extras[key]
    words = topic.upper().split()
    # "HELP SET DEADLINE" is about DEADLINE: try the words from the last one back.
    for word in [key, *reversed(words)]:
        if word in TOPICS:
            return TOPICS[word]
        if word in ALIASES:
            return TOPICS[ALIASES[word]]
    names = {**{t: f"HELP {t}" for t in (*TOPICS, *ALIASES)},
             **{_key(name): f"HELP {name}" for name in extra or {}}}
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.7)
    hint = f" (did you mean {names[close[0]]}?)" if close else ""
    return f'There is no help on "{topic.strip()[:60]}"{hint}; here are the topics.\n\n' + index


def _key(name: str) -> str:
    return "".join(name.upper().split())


def read_help(c: list[Token]) -> Draft:
    topic = joined(c) or None
    return Draft(lambda line: Help(line, topic))


def handle(ctx: Context, command: Help) -> None:
    """`HELP`, `HELP <topic>`, `HELP <variant>` (any of the variant's names): the variant's
    rules and the rulings this service plays them by; else the reply on the commands."""
    from gm.commands.handlers.common import game_rulebook
    from gm.variants import registry

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
)
