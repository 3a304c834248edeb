"""``umpire odds rhine``: the exact distribution of combat results for given strengths and
modifiers (the same CRT chance play samples), and the exact air and EW superiority odds.
Also the house-rules capability (a tables override file, checked before use)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from umpire.core.datafiles import load_override
from umpire.core.ruleset import Option
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.model import check_house_rules, world_for


class RhineOdds:
    options: Sequence[Option] = (
        Option("attack", "attacking strength (total)", "int", default=None),
        Option("defence", "defending strength (total)", "int", default=None),
        Option("drm", "net die-roll modifier (air, armour, EW, terrain)", "int", default=0),
        Option("attacker-cs", "support markers the attacker commits", "int", default=0),
        Option("defender-cs", "support markers the defender commits", "int", default=0),
        Option(
            "contest",
            "air-day, air-night or ew: superiority odds instead of combat",
            "str",
            choices=("air-day", "air-night", "ew"),
        ),
        Option("holder", "last turn's holder (pact, nato or none)", "str", default="none"),
        Option("scenario", "scenario whose tables to use", "str", default="autobahn-gap"),
    )

    def answer(self, values: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        w = world_for(str(values.get("scenario") or "autobahn-gap"), values.get("house_rules"))
        contest = values.get("contest")
        if contest:
            holder = values.get("holder") or "none"
            held = None if holder == "none" else str(holder)
            if contest == "ew":
                chance = R.ew_contest(w, held)
                cap = w.tables.ew.max_markers
            else:
                chance = R.air_contest(w, contest == "air-night", held)
                cap = w.tables.air.max_markers
            odds = R.contest_odds(chance, cap, held)
            data = {
                "contest": contest,
                "holder": holder,
                "pact": {k: float(v) for k, v in odds["pact"].items()},
                "nato": {k: float(v) for k, v in odds["nato"].items()},
                "none": float(odds["none"]),
            }
            lines = [f"{contest} superiority, last turn's holder {holder}:"]
            for side in ("pact", "nato"):
                lines.append(
                    f"  {side} wins {float(odds[side]['p']):6.1%}, "
                    f"mean markers when it wins {float(odds[side]['mean_markers']):.2f}"
                )
            if contest == "ew":
                lines.append(f"  nobody        {float(odds['none']):6.1%}")
            return data, lines
        attack, defence = values.get("attack"), values.get("defence")
        if attack is None or defence is None:
            raise ValueError("give --attack and --defence (or --contest)")
        if int(attack) < 1 or int(defence) < 1:
            # an attack needs attackers, and a hex with no defender is entered, not attacked
            raise ValueError(f"--attack {attack} --defence {defence}: strengths are 1 or more")
        column = R.odds_column(w, int(attack), int(defence))
        if column is None:
            raise ValueError(
                f"--attack {attack} against --defence {defence} is below the lowest column "
                f"({w.tables.crt.columns[0]}); no attack"
            )
        drm = int(values.get("drm") or 0) + int(values.get("attacker_cs") or 0)
        drm -= int(values.get("defender_cs") or 0)
        dist = R.crt_distribution(w, column, drm)
        label = w.tables.crt.columns[column]
        order = ["AE", "AR", "NE", "EX", "DR1", "DR2", "DE"]
        data = {
            "column": label,
            "drm": drm,
            "results": {r: float(dist[r]) for r in order if r in dist},
            "exact": {r: str(dist[r]) for r in order if r in dist},
        }
        lines = [f"{attack}:{defence} -> column {label}, net DRM {drm:+d}:"]
        lines += [f"  {r:<4}{float(dist[r]):6.1%}  ({dist[r]})" for r in order if r in dist]
        vacated = sum(float(dist.get(r, 0)) for r in ("EX", "DR1", "DR2", "DE"))
        lines.append(f"  defender's hex vacated {vacated:.1%}")
        data["vacated"] = vacated
        return data, lines


class RhineHouseRules:
    def load(self, path: Path) -> dict[str, Any]:
        return load_override(Path(path), check_house_rules)


ODDS = RhineOdds()
HOUSE_RULES = RhineHouseRules()
