"""``umpire odds sevendays ...`` (``ODDS``, an :class:`~umpire.core.ruleset.OddsCapability`):
exact odds of a shot, or of an activation or reaction test, through
:mod:`umpire.rulesets.sevendays.shot_query`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from umpire.core.errors import UmpireError
from umpire.core.ruleset import Option

OPTIONS: tuple[Option, ...] = (
    Option("firer", "Firing unit, by name or id."),
    Option("target", "Target unit, by name or id."),
    Option("range", "Range in inches.", type="float"),
    Option("facing", "Armour hit: front | side.", choices=("front", "side"), default="front"),
    Option(
        "firer-moved",
        "The firer moves this activation (before the shot, or a move declared after it).",
        type="bool",
        default=False,
    ),
    Option("reaction", "Reaction fire.", type="bool", default=False),
    Option("target-moving", "Reaction fire at a mover.", type="bool", default=False),
    Option(
        "target-cover",
        "open | cover | fortified",
        choices=("open", "cover", "fortified"),
        default="open",
    ),
    Option("in-buildings", "The target is in buildings.", type="bool", default=False),
    Option("obscured", "The target is >50% obscured.", type="bool", default=False),
    Option(
        "enemy-infantry-near", 'Enemy infantry within 12" of the firer.', type="bool", default=False
    ),
    Option("markers", "Morale markers on the firer (or the tested unit).", type="int", default=0),
    Option("target-markers", "Morale markers already on the target.", type="int", default=0),
    Option("weapon", "atgm | main | law | rockets", default="main"),
    Option("shots", "Identical shots in a row.", type="int", default=1),
    Option("firer-nation", "ORBAT of the firer."),
    Option("target-nation", "ORBAT of the target."),
    Option("activation", "Odds of an activation test.", type="bool", default=False),
    Option("reaction-test", "Odds of a reaction test.", type="bool", default=False),
    Option("tokens", "Tokens already on the tested unit.", type="int", default=0),
    Option("activator", "Reaction test: vehicle | foot.", default="vehicle"),
    Option("covered", "Reaction test: activator in cover.", type="bool", default=False),
    Option("atgm", "Reaction test: the reactor fires an ATGM.", type="bool", default=False),
    Option("close-combat", "Odds of a close combat (house).", type="bool", default=False),
    Option("card", "Odds of a Tactical Advantage card's dice, by card id (with --target)."),
    Option("support", "Close combat: attacker's infantry within 2\".", type="int", default=0),
    Option("enemy-support", "Close combat: defender's infantry within 2\".", type="int", default=0),
    Option("house-rules", "YAML file overriding house-rule numbers.", type="path"),
)


class SevenDaysOdds:
    """Shots (hit, penetration, destruction, morale markers), d6 tests and close combat."""

    options: Sequence[Option] = OPTIONS

    def answer(self, values: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        from umpire.rulesets.sevendays.config import house_rules, load_house_rules_override
        from umpire.rulesets.sevendays.shot_query import (
            CardQuery,
            CloseCombatQuery,
            ShotQuery,
            TestQuery,
            answer_card,
            answer_close_combat,
            answer_shot,
            answer_test,
            close_combat_json,
            close_combat_lines,
            fraction_text,
            shot_json,
            shot_lines,
        )

        house_path: Path | None = values.get("house_rules")
        house = house_rules(
            load_house_rules_override(house_path) if house_path else None,
            str(house_path or "house rules"),
        )
        activation, reaction_test = values["activation"], values["reaction_test"]
        if values.get("card"):
            return answer_card(
                CardQuery(
                    card=values["card"],
                    target=values.get("target"),
                    target_nation=values.get("target_nation"),
                    facing=values.get("facing") or "front",
                    target_cover=values.get("target_cover") or "open",
                    markers=values.get("markers") or 0,
                    target_markers=values.get("target_markers") or 0,
                    house=house,
                )
            )
        if values.get("close_combat"):
            if activation or reaction_test:
                raise UmpireError("ask for one of --close-combat, --activation, --reaction-test")
            fight = CloseCombatQuery(
                support=values["support"],
                markers=values["markers"],
                enemy_support=values["enemy_support"],
                target_markers=values["target_markers"],
            )
            fought = answer_close_combat(fight)
            return close_combat_json(fought), close_combat_lines(fight, fought)
        if activation or reaction_test:
            if activation and reaction_test:
                raise UmpireError("ask for --activation or --reaction-test, not both")
            test = answer_test(
                TestQuery(
                    kind="activation" if activation else "reaction",
                    tokens=values["tokens"],
                    markers=values["markers"],
                    activator=values["activator"],
                    covered=values["covered"],
                    atgm=values["atgm"],
                    house=house,
                )
            )
            p: Fraction = test["p_pass"]
            need = test["need"]
            what = (
                f"{test['test']} test with {values['tokens']} token(s) and "
                f"{values['markers']} marker(s)"
            )
            line = (
                f"{what}: no test needed (first activation)"
                if need is None
                else f"{what}: d6 needs {need}+ (a natural 6 passes) [{test['rule']}]"
            )
            return {**test, "p_pass": float(p)}, [line, f"  P(pass)  {fraction_text(p)}"]
        firer, target, range_ = values["firer"], values["target"], values["range"]
        if firer is None or target is None or range_ is None:
            raise UmpireError(
                "give --firer, --target and --range "
                "(or --activation / --reaction-test / --close-combat)"
            )
        fields = ShotQuery.__dataclass_fields__
        shot = {k: v for k, v in values.items() if k in fields and k not in ("range", "house")}
        answer = answer_shot(ShotQuery(range=range_, house=house, **shot))
        return shot_json(answer), shot_lines(answer)


ODDS = SevenDaysOdds()
