"""Flags a ruleset declares (``Option``), read from the command line the same way by the
typer commands (``umpire.cli``) and by the typer-free ``odds`` fast path
(``umpire.analysis.odds_command``): ``--name VALUE``, ``--name=VALUE``, ``--name``/``--no-name``
for a boolean, ``--SIDE-name VALUE`` per side, ``--SIDE WHO`` for the sides; and the game options
a battle or a companion session starts from. Light to import (no typer, rich or pydantic): a
cold ``umpire odds`` reads its flags here."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from umpire.core.errors import UmpireError
from umpire.core.ruleset import capability

if TYPE_CHECKING:
    from umpire.core.ruleset import Option, Ruleset

PLAYER_KINDS = ("ai", "scripted", "random", "human", "search[:PRESET][@SECONDS]")


def flag_names(options: Sequence[Option], sides: Sequence[str]) -> list[str]:
    names = []
    for option in options:
        for name in [f"{s}-{option.name}" for s in sides] if option.per_side else [option.name]:
            names.append(f"--{name}/--no-{name}" if option.type == "bool" else f"--{name}")
    return names


def convert(option: Option, flag: str, text: str, ruleset_id: str) -> Any:
    try:
        if option.type == "int":
            return int(text)
        if option.type == "float":
            return float(text)
    except ValueError:
        raise UmpireError(f"{flag} {text!r}: {ruleset_id} wants a number") from None
    if option.type == "path":
        return Path(text).expanduser()
    if option.type == "bool":
        lowered = text.lower()
        if lowered not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
            raise UmpireError(f"{flag}={text}: write true or false")
        return lowered in ("true", "yes", "1", "on")
    if option.choices and text not in option.choices:
        raise UmpireError(f"{flag} {text!r}: choose {', '.join(option.choices)}")
    return text


def parse_declared(
    args: Sequence[str],
    options: Sequence[Option],
    ruleset_id: str,
    sides: Sequence[str] = (),
    aliases: Sequence[str] = (),
    defaults: bool = False,
) -> tuple[dict[str, Any], dict[str, str]]:
    """``args`` read against the options a ruleset declares: ``--name VALUE``, ``--name=VALUE``,
    ``--name``/``--no-name`` for a boolean, ``--SIDE-name VALUE`` for a per-side option, and
    ``--SIDE WHO`` for each of ``aliases`` (the sides). Returns (option values by key, per-side
    ones as ``{side: value}``; with ``defaults`` every option's default too) and the alias
    values. An unknown flag is a one-line error naming the flags there are."""
    table: dict[str, tuple[Option, str | None]] = {}
    for option in options:
        for side in sides if option.per_side else [None]:
            name = f"{side}-{option.name}" if side else option.name
            table[name] = (option, side)
    values: dict[str, Any] = {}
    if defaults:
        values = {o.option_key: ({} if o.per_side else o.default) for o in options}
    named: dict[str, str] = {}
    items = list(args)
    while items:
        token = items.pop(0)
        if not token.startswith("--"):
            raise UmpireError(
                f"unexpected {token!r}: " + (_game_hint(token) or "flags are written --name VALUE")
            )
        name, eq, inline = token[2:].partition("=")
        negated = name.startswith("no-") and name[3:] in table and table[name[3:]][0].type == "bool"
        if name in aliases or name in table or negated:
            pass
        else:
            known = [f"--{a} WHO" for a in aliases] + flag_names(options, sides)
            raise UmpireError(
                f"{ruleset_id} has no option --{name}; "
                + (f"its options: {', '.join(known)}" if known else "it declares no options")
            )
        if negated:
            option, side = table[name[3:]]
            value: Any = False
        elif name in aliases:
            if not eq:
                if not items:
                    raise UmpireError(f"--{name} needs a value: {', '.join(PLAYER_KINDS)}")
                inline = items.pop(0)
            named[name] = inline
            continue
        else:
            option, side = table[name]
            if option.type == "bool" and not eq:
                value = True
            else:
                if not eq:
                    if not items:
                        raise UmpireError(f"--{name} needs a value")
                    inline = items.pop(0)
                value = convert(option, f"--{name}", inline, ruleset_id)
        key = option.option_key
        if side is None:
            values[key] = value
        else:
            values[key] = {**values.get(key, {}), side: value}
    return values, named


def game_options(
    ruleset: Ruleset[Any],
    scenario: str,
    args: Sequence[str],
    house_rules: Path | None,
) -> tuple[dict[str, Any], dict[str, str]]:
    """Game options from the ruleset's declared flags and a house-rules file, ready for a
    record (force files loaded and deployed by the forces capability), and the ``--SIDE WHO``
    aliases given."""
    caps = ruleset.capabilities
    values, named = parse_declared(
        args, caps.options, ruleset.meta.id, ruleset.meta.players, ruleset.meta.players
    )
    options: dict[str, Any] = {k: plain_value(v) for k, v in values.items()}
    if house_rules is not None:
        options["house_rules"] = capability(ruleset, "house_rules").load(house_rules)
    if caps.forces is not None:
        options = caps.forces.prepare_options(scenario, options)
    return options, named


def plain_value(value: Any) -> Any:
    """A value as a record stores it (paths as text)."""
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, dict):
        return {k: plain_value(v) for k, v in value.items()}
    return value


def _game_hint(token: str) -> str | None:
    """What a stray word that looks like a game meant: a ruleset or a scenario named alone
    (``meeting-engagement``, ``sevendays/``), answered with the RULESET/SCENARIO to write."""
    from umpire.core.ruleset import get_ruleset, ruleset_ids

    name = token.strip("/")
    found: list[str] = []
    for ruleset_id in ruleset_ids():
        try:
            scenarios = get_ruleset(ruleset_id).scenario_ids()
        except UmpireError:
            continue
        if name == ruleset_id:
            return f"name a scenario too: {', '.join(f'{ruleset_id}/{s}' for s in scenarios)}"
        found += [f"{ruleset_id}/{s}" for s in scenarios if s == name]
    if found:
        return f"a game is written RULESET/SCENARIO: did you mean {' or '.join(found)}?"
    return None
