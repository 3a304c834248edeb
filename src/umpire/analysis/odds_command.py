"""What ``umpire odds`` answers, for any ruleset that can answer it.

Seven Days answers shots and d6 tests through
:mod:`umpire.rulesets.sevendays.shot_query`; another ruleset answers through its own
``odds(firer=..., target=..., range=..., **options)`` method returning a JSON-ready dict.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from umpire.core.errors import UmpireError
from umpire.core.ruleset import get_ruleset, load_house_rules

# option -> default: what ``umpire odds`` passes on when the user changed it
DEFAULTS: dict[str, Any] = {
    "facing": "front",
    "firer_moved": False,
    "reaction": False,
    "target_moving": False,
    "target_cover": "open",
    "in_buildings": False,
    "obscured": False,
    "enemy_infantry_near": False,
    "markers": 0,
    "target_markers": 0,
    "weapon": "main",
    "shots": 1,
    "firer_nation": None,
    "target_nation": None,
    "tokens": 0,
    "activator": "vehicle",
    "covered": False,
    "atgm": False,
    "quality": None,
    "commander": False,
    "observed": False,
    "same_target": False,
    "artillery": None,
}


def odds_answer(
    ruleset_id: str,
    *,
    firer: str | None,
    target: str | None,
    range: float | None,
    activation: bool = False,
    reaction_test: bool = False,
    house_rules: Path | None = None,
    **options: Any,
) -> tuple[dict[str, Any], list[str]]:
    """(JSON summary with float probabilities, lines for a person)."""
    ruleset = get_ruleset(ruleset_id)
    if ruleset_id == "sevendays":
        return _sevendays(firer, target, range, activation, reaction_test, house_rules, options)
    answer = getattr(ruleset, "odds", None)
    if answer is None:
        raise UmpireError(f"{ruleset_id} cannot compute odds yet")
    if activation or reaction_test:
        raise UmpireError(f"{ruleset_id} has no activation or reaction tests to ask about")
    if firer is None or target is None or range is None:
        raise UmpireError("give --firer, --target and --range")
    changed = {k: v for k, v in options.items() if DEFAULTS.get(k) != v}
    if house_rules is not None:
        changed["house"] = load_house_rules(ruleset, house_rules)
    data: dict[str, Any] = answer(firer=firer, target=target, range=range, **changed)
    lines = [f"{firer} at {target}, range {range:g}:"]
    for key, value in data.items():
        if isinstance(value, dict):
            lines.append(f"  {key}:")
            lines += [f"    {k:>3}  {v:7.2%}" for k, v in value.items()]
        elif isinstance(value, float):
            lines.append(f"  {key:<14} {value:7.2%}")
        else:
            lines.append(f"  {key:<14} {value}")
    return data, lines


def _sevendays(
    firer: str | None,
    target: str | None,
    range: float | None,
    activation: bool,
    reaction_test: bool,
    house_path: Path | None,
    options: dict[str, Any],
) -> tuple[dict[str, Any], list[str]]:
    from umpire.rulesets.sevendays.config import house_rules, load_house_rules_override
    from umpire.rulesets.sevendays.shot_query import (
        ShotQuery,
        TestQuery,
        answer_shot,
        answer_test,
        fraction_text,
        shot_json,
        shot_lines,
    )

    house = house_rules(
        load_house_rules_override(house_path) if house_path else None,
        str(house_path or "house rules"),
    )
    if activation or reaction_test:
        if activation and reaction_test:
            raise UmpireError("ask for --activation or --reaction-test, not both")
        test = answer_test(
            TestQuery(
                kind="activation" if activation else "reaction",
                tokens=options["tokens"],
                markers=options["markers"],
                activator=options["activator"],
                covered=options["covered"],
                atgm=options["atgm"],
                house=house,
            )
        )
        p: Fraction = test["p_pass"]
        need = test["need"]
        what = (
            f"{test['test']} test with {options['tokens']} token(s) and "
            f"{options['markers']} marker(s)"
        )
        line = (
            f"{what}: no test needed (first activation)"
            if need is None
            else f"{what}: d6 needs {need}+ (a natural 6 passes) [{test['rule']}]"
        )
        return {**test, "p_pass": float(p)}, [line, f"  P(pass)  {fraction_text(p)}"]
    if firer is None or target is None or range is None:
        raise UmpireError("give --firer, --target and --range (or --activation / --reaction-test)")
    portable_only = [
        k
        for k in ("quality", "commander", "observed", "same_target", "artillery")
        if options.get(k) != DEFAULTS[k]
    ]
    if portable_only:
        raise UmpireError(f"--{portable_only[0].replace('_', '-')} is not a Seven Days option")
    shot_options = {k: options[k] for k in ShotQuery.__dataclass_fields__ if k in options}
    answer = answer_shot(
        ShotQuery(firer=firer, target=target, range=range, house=house, **shot_options)
    )
    return shot_json(answer), shot_lines(answer)
