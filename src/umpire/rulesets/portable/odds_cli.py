"""``umpire odds portable ...`` (``ODDS``, an :class:`~umpire.core.ruleset.OddsCapability`):
exact odds of a unit type's fire or an artillery class's bombardment, through
:func:`umpire.rulesets.portable.odds.fire_odds`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from umpire.core.errors import UmpireError
from umpire.core.ruleset import Option

OPTIONS: tuple[Option, ...] = (
    Option("firer", "Firing unit type or artillery class."),
    Option("target", "Target unit type."),
    Option("range", "Range in squares.", type="float"),
    Option("quality", "Target quality: elite | average | poor."),
    Option("target-cover", "open | cover | fortified", default="open"),
    Option("firer-moved", "The firer moved this turn.", type="bool", default=False),
    Option("commander", "Commander with the firer.", type="bool", default=False),
    Option(
        "observed", "Artillery: the gun or a spotter sees the target.", type="bool", default=False
    ),
    Option("same-target", "Artillery: same target as last turn.", type="bool", default=False),
    Option("artillery", "Gun class (heavy, medium, field, ...)."),
    Option("house-rules", "YAML file overriding house-rule numbers.", type="path"),
)


class PortableOdds:
    """Hits and immediate SP losses of fire and artillery."""

    options: Sequence[Option] = OPTIONS

    def answer(self, values: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        from umpire.rulesets.portable.config import load_house_rules_override
        from umpire.rulesets.portable.odds import fire_odds

        firer, target, range_ = values["firer"], values["target"], values["range"]
        if firer is None or target is None or range_ is None:
            raise UmpireError("give --firer, --target and --range")
        # unit types are written in lower case with underscores ("machine_guns"); "Machine Guns"
        # as the book prints it is read the same
        firer, target = _type_name(str(firer)), _type_name(str(target))
        defaults = {o.option_key: o.default for o in OPTIONS}
        flags = {
            k: v
            for k, v in values.items()
            if k not in ("firer", "target", "range", "house_rules") and v != defaults.get(k)
        }
        house_path: Path | None = values.get("house_rules")
        house = load_house_rules_override(house_path) if house_path is not None else None
        data = fire_odds(firer, target, range_, house=house, **flags)
        lines = [f"{firer} at {target}, range {range_:g}:"]
        for key, value in data.items():
            if isinstance(value, dict):
                lines.append(f"  {key}:")
                lines += [f"    {k:>3}  {v:7.2%}" for k, v in value.items()]
            elif isinstance(value, float):
                lines.append(f"  {key:<14} {value:7.2%}")
            else:
                lines.append(f"  {key:<14} {value}")
        return data, lines


def _type_name(text: str) -> str:
    return "_".join(text.strip().lower().replace("-", " ").split())


ODDS = PortableOdds()
