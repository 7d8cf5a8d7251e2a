"""Run a message's commands in order: each to its handler, errors and the rest into the reply.

A handler's module is imported when a message first uses one of its commands: a `gm ingest` of
orders loads neither the game-creating nor the adjudicating commands, and the service answers
its first message sooner.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gm.commands.handlers.context import Context, Notice
from gm.commands.values import (
    Add,
    AddObserver,
    Ahead,
    Clear,
    ClearAbsence,
    ClearAhead,
    Command,
    CommandError,
    ConfirmAddress,
    Create,
    Eject,
    Help,
    History,
    Join,
    JoinPrefer,
    ListGames,
    MapRequest,
    NotACommand,
    Observe,
    OrderLine,
    Pause,
    Press,
    Preview,
    Process,
    Replace,
    ReplaceFromStandby,
    Resign,
    Resume,
    Rollback,
    SetAbsence,
    SetAbsenceLimit,
    SetAddress,
    SetDeadline,
    SetDraw,
    SetEarly,
    SetGrace,
    SetLate,
    SetObserve,
    SetObservers,
    SetPassword,
    SetPress,
    SetRemind,
    SetRulebook,
    SetTimezone,
    SetWait,
    SignOff,
    SignOn,
    SignOnMaster,
    Standby,
    Start,
    Summary,
    Terminate,
    Unlock,
)
from gm.mail.compose import build_subject
from gm.service.render import render

Handler = Callable[[Context, Any], None]

# Each command's handler: its module in gm.commands.handlers, and the function there.
HANDLERS: Mapping[type[Command], tuple[str, str]] = {
    SignOn: ("signon", "signon_power"),
    SignOnMaster: ("signon", "signon_master"),
    Join: ("signon", "join"),
    Create: ("create", "create"),
    Add: ("create", "add"),
    Start: ("create", "start"),
    OrderLine: ("order_taking", "order_line"),
    Clear: ("order_taking", "clear"),
    Process: ("gm_control", "process"),
    Preview: ("gm_control", "preview"),
    Rollback: ("gm_control", "rollback"),
    Pause: ("gm_control", "pause"),
    Resume: ("gm_control", "resume"),
    Terminate: ("gm_control", "terminate"),
    ListGames: ("info", "list_games"),
    Help: ("info", "help_command"),
    Summary: ("records", "summary"),
    History: ("records", "history"),
    SetPassword: ("player_settings", "set_password"),
    SetDraw: ("player_settings", "set_draw"),
    SetWait: ("player_settings", "set_wait"),
    Resign: ("player_settings", "resign"),
    Press: ("press", "press"),
    SetDeadline: ("gm_settings", "set_deadline"),
    SetGrace: ("gm_settings", "set_grace"),
    SetTimezone: ("gm_settings", "set_timezone"),
    SetPress: ("gm_settings", "set_press"),
    SetLate: ("gm_settings", "set_late"),
    SetEarly: ("gm_settings", "set_early"),
    SetRemind: ("gm_settings", "set_remind"),
    SetRulebook: ("gm_settings", "set_rulebook"),
    SetObservers: ("gm_settings", "set_observers"),
    AddObserver: ("gm_settings", "add_observer"),
    Replace: ("seats", "replace"),
    Eject: ("seats", "eject"),
    Unlock: ("seats", "unlock"),
    Observe: ("observing", "observe"),
    SetObserve: ("observing", "set_observe"),
    MapRequest: ("map_request", "map_request"),
    Standby: ("standby", "standby"),
    ReplaceFromStandby: ("standby", "replace_from_standby"),
    SetAddress: ("address", "set_address"),
    ConfirmAddress: ("address", "confirm_address"),
    SetAbsence: ("absence", "set_absence"),
    ClearAbsence: ("absence", "clear_absence"),
    SetAbsenceLimit: ("absence", "set_absence_limit"),
    JoinPrefer: ("join_prefer", "join_prefer"),
    Ahead: ("ahead", "ahead"),
    ClearAhead: ("ahead", "clear_ahead"),
}

# Commands that open a new sign-on: the orders of the one before are stored first.
_SIGNONS = (SignOn, SignOnMaster, Create)
# Commands that run even after a refused SIGNON (they need no sign-on).
_ALWAYS = (*_SIGNONS, Join, Help, ListGames, Summary, History, Observe, MapRequest, Standby,
           ConfirmAddress, JoinPrefer)


def run_commands(ctx: Context, commands: Sequence[Command]) -> None:
    """Run `commands` in order against `ctx`, writing into `ctx.results`."""
    unsigned = 0  # lines that were not commands, before any SIGNON
    for command in commands:
        ctx.command_starts(command)  # what goes on over several commands hears of it
        if isinstance(command, SignOff):
            break
        if isinstance(command, NotACommand):
            from gm.commands.handlers.unsigned import not_a_command

            not_a_command(ctx, command, unsigned)
            unsigned += 1
            continue
        if isinstance(command, CommandError):
            ctx.results.add(str(command))
            if getattr(command, "keyword", "") == "SIGNON":
                ctx.signed = None
                ctx.refused_signon = True
            continue
        if ctx.refused_signon and not isinstance(command, _ALWAYS):
            continue  # the sign-on they follow was refused: said once, at the SIGNON
        handler = handler_for(type(command))
        if handler is None:
            words = command.line.text.upper().split()
            keyword = " ".join(words[:2] if words[:1] == ["SET"] else words[:1])
            ctx.results.add(f"{command.line}: {keyword} is not available yet.")
            continue
        handler(ctx, command)
    ctx.message_ends()  # what went on over several commands finishes (orders are stored)
    if unsigned and ctx.signed is None and not ctx.refused_signon:
        from gm.commands.handlers.unsigned import signon_hint

        signon_hint(ctx)
    _queue_copies(ctx)


def handler_for(kind: type[Command]) -> Handler | None:
    """The handler of commands of this type (its module imported now if need be), or None."""
    where = HANDLERS.get(kind)
    if where is None:
        return None
    module, name = where
    handler: Handler = getattr(importlib.import_module(f"gm.commands.handlers.{module}"), name)
    return handler


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
        ctx.results.mail.append(Notice((address,), subject, body, game_id))
