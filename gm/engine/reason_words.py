"""The words of the reasons of order results (gm.engine.reasons): the one place they are
written, for the reports (`words`) and for the reply that refuses an order on arrival
(`refusal`). The wording is the rules' own (DATC, the variants' rule texts, as cited)."""

from __future__ import annotations

from gm.engine.errors import ErrorCode, compose
from gm.engine.reasons import Fate, Kind, Reason, Void

# what each kind says, its fields filled in (str.format: {power} {unit} {province} {other}
# {count} {against} {more}; {s}: "" for a count of 1, else "s" ({s_against}: the same for
# `against`); {names}: "A, B", {and_names}: "A and B", {or_names}: "A or B", {and_list}:
# "A, B and C"; {error}: the order error's sentence (gm.engine.errors); {via}: " by convoy" or
# "", {cvia}: ", by convoy" or ""; {how}: "cannot reach {other}" for a count of -1, else
# "{count} moves from {other}")
_SAYS: dict[Kind, str] = {
    Void.REPLACED: "replaced by a later order",
    Void.ALREADY_REMOVED: "{unit} is already removed",
    Void.REMOVE_ONLY: "{power} needs to remove only {count}",
    Void.BUILD_ONLY: "{power} may build only {count}",
    Void.ALREADY_BUILT: "a unit is already built in {province}",
    Void.SUPPORT_DID_NOT_HOLD: "{unit} did not hold (it moved to {province})",
    Void.SUPPORT_MOVED_ELSEWHERE: "{unit} moved to {province}, not to {other}",
    Void.SUPPORT_DID_NOT_MOVE: "{unit} did not move to {province}",
    Void.CONVOY_MOVED_ELSEWHERE: "{unit} moved to {province}, not {other}",
    Void.CONVOY_DID_NOT_MOVE: "{unit} did not move to {province}",
    Void.EVENT_REPLACED: "replaced by a later event order (one event per movement phase, "
                         "rule 1a)",
    Void.DECLARATION_REPLACED: "replaced by a later declaration",
    Void.ALLIANCE_NOT_IN_WINTER: "alliance declarations are made in a Winter (Chaos II rule 6)",
    Void.NO_SUCH_POWER: "no power called {names}",
    Void.HOME_NOT_IN_WINTER: "home designations are made in a Winter (Chaos II rule 4)",
    Void.NOT_A_CENTRE: "{province} is not a supply centre",
    Void.ALREADY_HOME: "{province} is already a home centre of {power}",
    Void.NOT_OWNED: "{power} does not own {province}",
    Void.NOT_OWNED_LAST_WINTER: "{power} did not own {province} at the end of the previous "
                                "Winter (Chaos II rule 4: two consecutive Winters)",
    Void.HOME_STATUS_LOST: "{province} lost its home status since the last Winter; it must be "
                           "owned during two new Winters (Chaos II rule 5)",
    Void.HOMES_USED: "{power} has used both of its home designations (Chaos II rules 4 and 5: a "
                     "lost one is not refunded)",
    Fate.NOTHING: "",
    Fate.STATED: "{other}",
    Fate.ORDER_ERROR: "{error}",
    Fate.AMBIGUOUS: "ambiguous: {error}",
    Fate.REFUSED_ON_ARRIVAL: "refused on arrival",
    Fate.POWER_UNKNOWN: "no power called {other!r} in {names}; the order is void",
    Fate.POWER_UNNAMED: "no power named in {names}; the order is void",
    Fate.NO_ORDER: "no order",
    Fate.UNREADABLE: "unreadable order",
    Fate.HOLDS: "holds",
    Fate.MOVES: "moves to {province}{via}",
    Fate.MOVES_CIRCULAR: "moves to {province}{via} (circular movement)",
    Fate.MOVES_DISLODGING: "moves to {province}{via}, dislodging {unit}",
    Fate.NO_CONVOY_ROUTE: "no convoy route: no chain of fleets was ordered to convoy it",
    Fate.CONVOY_PARADOX_MOVE: "convoy failed: paradox, {names} does not convoy (Szykman rule)",
    Fate.CONVOY_FLEETS_DISLODGED: "convoy disrupted: {names} dislodged",
    Fate.OWN_UNIT: "would dislodge its own {unit}",
    Fate.SHIELDED: "{unit} cannot be dislodged there",
    Fate.FAILED_TO_MOVE: "failed to move to {province}",
    Fate.BOUNCED: "bounced with {unit} ({count} against {against})",
    Fate.OUTMATCHED: "bounced: {unit} is stronger ({count} against {against})",
    Fate.SUPPORTS: "supports {unit}",
    Fate.SUPPORTS_MOVE: "supports {unit} - {province}",
    Fate.SUPPORT_CUT_BY: "support cut by {unit}",
    Fate.SUPPORT_CUT: "support cut",
    Fate.CONVOY_PARADOX: "convoy failed: convoy paradox (Szykman rule)",
    Fate.CONVOY_DISRUPTED: "convoy disrupted",
    Fate.CONVOY_NOT_USED: "convoy not used: {unit} went over land",
    Fate.CONVOYS: "convoys {unit} to {province}",
    Fate.CONVOYS_IN_VAIN: "convoys {unit} to {province} (the army did not get there)",
    Fate.DISLODGED: "dislodged by {unit} ({power}{cvia})",
    Fate.HOLDER_HOLDS: "{unit} holds",
    Fate.RETREATS: "retreats to {province}",
    Fate.RETREATS_CLASHED: "disbanded: {names} also retreated to {province}",
    Fate.DISBANDED: "disbanded",
    Fate.UNIT_DISBANDED: "{unit} is disbanded",
    Fate.NO_RETREAT_ORDER: "no retreat order: disbanded",
    Fate.NO_RETREAT_PLACE: "no place to retreat to: disbanded",
    Fate.UNIT_FATE: "{unit}",
    Fate.BECOMES: "becomes {unit}",
    Fate.NOT_AN_ARMY: "only an army can transform into a fleet; {unit} is not an army",
    Fate.NOT_COASTAL: "{province} is not a coastal province: an army there cannot become a fleet",
    Fate.COAST_NOT_SAID: "{province} has more than one coast: say which ({or_names})",
    Fate.NOT_A_COAST: "{other} is not a coast of {province}: say {or_names}",
    Fate.ALLIANCE_ALONE: "an alliance needs at least one other power",
    Fate.ALLIANCE_NOT_DECLARED: "the lists do not tally: {and_list} did not declare the alliance",
    Fate.ALLIANCE_OTHERS_NAMED: "the lists do not tally: {and_list} named other powers",
    Fate.ALLIANCE_TOO_MANY: "{count} members are more than one third of the {against} powers "
                            "left (at most {other}; Chaos II rule 6)",
    Fate.ALLIANCE_TOO_SMALL: "the members own {count} centres together; {against} are needed "
                             "(Chaos II rule 6)",
    Fate.DISLODGED_ONLY: "dislodged",
    Fate.ALLIANCE_TALLIES: "the declarations of {and_list} tally ({count} centres): they share "
                           "the victory",
    Fate.HOME_AGAIN_START: "{province}, the starting centre of {power}, is a home centre again",
    Fate.HOME_AGAIN: "{province} is a home centre of {power} again (no designation used)",
    Fate.BECOMES_HOME: "{province} becomes a home centre of {power} ({count} designation{s} "
                       "left)",
    Fate.EXCHANGE_NOT_ORDERED: "{power} did not order the exchange",
    Fate.EXCHANGE_DIFFERENT: "{power} ordered a different exchange",
    Fate.EXCHANGE_PARTNER_CANNOT: "{power}'s side of the exchange cannot be carried out",
    Fate.EXCHANGES: "{power} gives {names} to {other} and receives {more}",
    Fate.EXCHANGE_NOT_IN_PHASE: "centres are exchanged at the end of a movement phase (rule 6)",
    Fate.EXCHANGE_NO_SUCH_POWER: "there is no power called {other}",
    Fate.EXCHANGE_WITH_ITSELF: "a power cannot exchange centres with itself",
    Fate.EXCHANGE_CENTRES_UNNAMED: "an exchange names the centres given and the centres received",
    Fate.EXCHANGE_UNEQUAL: "the number of centres exchanged by each power must be equal (gives "
                           "{count}, receives {against}; rule 6)",
    Fate.EXCHANGE_NAMED_TWICE: "a centre is named twice",
    Fate.EXCHANGE_NOT_A_CENTRE: "{province} is not a supply centre",
    Fate.EXCHANGE_NOT_OWNED: "{power} does not own {province}",
    Fate.EXCHANGE_OCCUPIED: "{power} still occupies {province} with {unit} (rule 6)",
    Fate.NO_CHANGE_NOT_NOW: "a `no change` order is given with the season's moves or retreats",
    Fate.NO_UNIT: "{power} has no unit in {province}",
    Fate.NOT_A_FLEET: "{unit} is not a fleet",
    Fate.KEEPS_FLEET: "{unit} will be disbanded, not become an army, if it is stranded inland "
                      "this season",
    Fate.FROZEN_CONVOY: "{province} is frozen: an army there may leave only overland, not by "
                        "convoy (rule 5); {unit} holds",
    Fate.DESTROYED_BEFORE: "the unit in {province} was destroyed before movement: {other}",
    Fate.EVENTS_NOT_NOW: "terrain events are ordered in movement phases only (rule 1)",
    Fate.OFF_THE_BOARD: "{province} is not part of the board in this game",
    Fate.NO_SUCH_SPACE: "there is no space {province}",
    Fate.NO_SHARED_BORDER: "{province} and {other} share no border",
    Fate.EARTHQUAKE_ON_A_SPACE: "an earthquake strikes a border: name two spaces, e.g. Earthquake "
                                "Mun-Ber",
    Fate.EVENT_ON_A_BORDER: "{other} strikes a space, not a border",
    Fate.UPLIFT_NOT_WATER: "uplift raises a sea or lake; {province} is {other}",
    Fate.ERODE_NOT_LAND: "erosion wears down land or a mountain; {province} is {other}",
    Fate.OROGENESIS_NOT_LAND: "orogenesis raises land into a mountain; {province} is {other}",
    Fate.ALREADY_ICED: "{province} is already under ice",
    Fate.ICE_OUT_OF_REACH: "ice advances only into a space bordering the polar ice or an iced "
                           "space; {province} borders neither",
    Fate.NOT_ICED: "{province} is not under ice",
    Fate.ICE_SURROUNDED: "{province} is completely surrounded by ice, so the ice cannot retreat "
                         "from it",
    Fate.CREATE_NOT_IN_SPRING: "a new centre may be created in a Spring movement phase only "
                               "(rule 7)",
    Fate.CREATE_NOT_ON_LAND: "a centre is created on land; {province} is {other}",
    Fate.ALREADY_A_CENTRE: "{province} is already a supply centre",
    Fate.SUPPORT_NO_SUCH_POWER: "there is no power called {other!r}",
    Fate.SUPPORT_OWN_EVENT: "a power supports another power's event, not its own (rule 3)",
    Fate.STABILISE_NONE: "a stabilisation count must be at least 1",
    Fate.STABILISE_ALLOWANCE: "{power} owns {count} centre(s) and may stabilise that many times "
                              "(rule 1b); {other} already ordered",
    Fate.STABILISE_TRIMMED: "{count} of the {against} counted: {power} owns {other} centre(s) "
                            "and may stabilise that many times (rule 1b); the other {rest} "
                            "refused",
    Fate.STABILISE_TRIMMED_AFTER: "{count} of the {against} counted: {power} owns {other} "
                                  "centre(s) and may stabilise that many times (rule 1b), "
                                  "{province} already ordered; the other {rest} refused",
    Fate.OVERCOME_BY: "overcome by",
    Fate.HOLDS_AGAINST: "holds against",
    Fate.NO_EVENT_THERE: "no event there",
    Fate.AN_EVENT: "{power}'s {other}",
    Fate.AN_EVENT_OF_STRENGTH: "{power}'s {other} (strength {count} against {against} "
                               "stabilisation{s_against})",
    Fate.ENGULFED_BY_ICE: "{unit} is engulfed by ice and cannot move or act until the ice "
                          "retreats; it holds (rule 8)",
    Fate.INTO_ICE: "fleets cannot move into ice: {province} is iced; {unit} holds (rule 8)",
    Fate.NEUTRAL_CENTRE: "a neutral centre from now on",
    Fate.EVENT_SUCCEEDS: "strength {count} against {against} stabilisation{s_against}",
    Fate.EVENT_NO_CHANGE: "strength {count} against {against} stabilisation{s_against}: no "
                          "change",
    Fate.SUPPORT_ADDS_SUCCEEDS: "adds 1 to {power}'s {other}, which succeeds (strength {count} "
                                "against {against} stabilisation{s_against})",
    Fate.SUPPORT_ADDS_FAILS: "adds 1 to {power}'s {other}, which fails (strength {count} "
                             "against {against} stabilisation{s_against})",
    Fate.NOTHING_TO_SUPPORT: "{power} ordered {other}, so there is nothing to support (rule 3)",
    Fate.NO_EVENT_TO_SUPPORT: "{power} ordered no event, so there is nothing to support (rule "
                              "3)",
    Fate.BUILD_KIND_ONLY: "{unit} cannot be built: only {other} are built in {province}",
    Fate.REMOVED: "{unit} removed",
    Fate.WAIVED: "build waived",
    Fate.BUILDS: "builds {unit}",
    Fate.DISORDER: "removed by civil disorder ({how})",
    Fate.RETREATS_ABOARD: "retreats onto the fleet in {province}, forming A/F {province}",
    Fate.RETREATS_AS_FLEET: "retreats to {province} as a fleet; its army is disbanded",
    Fate.AF_ARMY_REMOVED: "the army of {unit} removed; {names} stays",
    Fate.AF_REMOVED: "{unit} removed (its army and its fleet)",
    Fate.AF_DISORDER_ARMY: "the army of {unit} removed by civil disorder ({how}); {names} stays",
    Fate.AF_DISORDER: "removed by civil disorder, its army and its fleet ({how})",
    Fate.BOARDS: "boards F {province}, forming A/F {province}",
    Fate.BOARD_CLASH: "{and_names} both board the fleet in {province}, which carries one army",
    Fate.CIRCULAR_STAND: "circular reasoning: all units involved stand",
    Fate.AF_STAYS: "its army did not land in {province}, so the A/F stays (the army would be "
                   "left behind to drown)",
    Fate.STAYS_ABOARD: "it stays aboard the fleet in {province}, which becomes A/F {province}",
    Fate.LANDS: "the army lands in {province}",
    Fate.LANDS_DISLODGING: "the army lands in {province}, dislodging {unit}",
    Fate.ARMY_STAYS_ABOARD: "the army stays aboard",
    Fate.CARRIER_DID_NOT_REACH: "{unit} did not reach {province}",
    Fate.LANDING_EXCEPTED: "the landing would affect the move of its own A/F, so it fails (the "
                           "circularity exception)",
    Fate.CARRIES_ABOARD: "carries {unit}, which could not land in {province} and stays aboard: "
                         "A/F {other} formed",
    Fate.DISLODGED_BY_LANDING: "dislodged by {unit}, landing from {province}",
}

# the reasons a part follows with ": " rather than "; " (the part says how: "no order: holds",
# "support cut: dislodged by ..."), and " and is " ("A Par holds and is dislodged by ...")
_COLON = frozenset({Fate.NO_ORDER, Fate.SUPPORT_CUT, Fate.CONVOY_DISRUPTED})
# the reasons whose parts are a list that follows them: "holds against A, B" (Geophysical)
_LISTING = frozenset({Fate.OVERCOME_BY, Fate.HOLDS_AGAINST})

_SUPPORTS = frozenset({Void.SUPPORT_DID_NOT_HOLD, Void.SUPPORT_MOVED_ELSEWHERE,
                       Void.SUPPORT_DID_NOT_MOVE})
_CONVOYS = frozenset({Void.CONVOY_MOVED_ELSEWHERE, Void.CONVOY_DID_NOT_MOVE})


def head(reason: Reason) -> str:
    """What is void: "support void", "convoy void" (the order stands, its help does not), or
    "void" (the order is not carried out); "" for a reason that is no void."""
    if not isinstance(reason.kind, Void):
        return ""
    if reason.kind in _SUPPORTS:
        return "support void"
    if reason.kind in _CONVOYS:
        return "convoy void"
    return "void"


def _and_list(names: tuple[str, ...]) -> str:
    """"A, B and C"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def says(kind: Kind) -> str:
    """The template of a kind's words (every kind has one)."""
    return _SAYS[kind]


def refusal(reason: Reason) -> str:
    """Why, without its head nor what follows: how a reply refusing the order says it
    ("replaced by a later order")."""
    error = ""
    if reason.kind is Fate.ORDER_ERROR or reason.kind is Fate.AMBIGUOUS:
        error = compose(ErrorCode(reason.other), reason.facts)
    return _SAYS[reason.kind].format(error=error,
        power=reason.power, unit=reason.unit, province=reason.province, other=reason.other,
        count=reason.count, names=", ".join(reason.names),
        and_names=" and ".join(reason.names), or_names=" or ".join(reason.names),
        and_list=_and_list(reason.names),
        more=", ".join(reason.more), s="" if reason.count == 1 else "s",
        s_against="" if reason.against == 1 else "s", against=reason.against,
        rest=reason.against - reason.count,
        via=" by convoy" if reason.convoy else "", cvia=", by convoy" if reason.convoy else "",
        how=f"cannot reach {reason.other}" if reason.count < 0 else
        f"{reason.count} move{'' if reason.count == 1 else 's'} from {reason.other}")


def words(reason: Reason) -> str:
    """The reason as the reports give it: "void: replaced by a later order", "bounced with
    A Mun (1 against 1); dislodged by A Bur (France)"."""
    lead = head(reason)
    return f"{lead}: {unheaded(reason)}" if lead else unheaded(reason)


def unheaded(reason: Reason) -> str:
    """The reason and what follows it, without the head a void reason has: how a reply
    refusing an order says why."""
    text = refusal(reason)
    for n, part in enumerate(reason.parts):
        if n == 0 and reason.kind in _COLON:
            joint = ": "
        elif reason.kind is Fate.HOLDER_HOLDS and part.kind is Fate.DISLODGED:
            joint = " and is "
        elif n == 0 and reason.kind in (Fate.UNIT_FATE, *_LISTING):
            joint = " "
        elif reason.kind in _LISTING:
            joint = ", "
        else:
            joint = "; "
        text += joint + words(part)
    return text
