"""``umpire odds sevendays``: a shot or a d6 test described by the user, answered exactly.

The user names the firer and the target and states the situation the table would decide (range,
facing, cover, obscured, enemy infantry near). The shot is then planned by the game's own
:func:`~umpire.rulesets.sevendays.firing.plan_from_situation` and its dice enumerated by
:func:`~umpire.rulesets.sevendays.odds.exact_odds`: no rule is restated here.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from umpire.core.chance import DiceOff
from umpire.core.errors import UmpireError, UnknownUnitError
from umpire.rulesets.sevendays.air import aa_plan_from, aa_system
from umpire.rulesets.sevendays.config import HouseRules, default_house_rules
from umpire.rulesets.sevendays.firing import plan_from_situation
from umpire.rulesets.sevendays.odds import ExactOdds, d6_test_odds, exact_odds
from umpire.rulesets.sevendays.orbat import UnitProfile, UnitType
from umpire.rulesets.sevendays.scenario import ORBATS, load_nation
from umpire.rulesets.sevendays.shots import Refusal, ShotPlan, Situation, describe_modifiers

WEAPONS = {"main": "gun", "gun": "gun", "law": "gun", "atgm": "atgm", "rockets": "rockets"}
COVERS = ("open", "cover", "fortified")
MAX_SHOTS = 100  # far beyond any activation; the exact odds of more take seconds each


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def nations() -> list[str]:
    return sorted(p.stem for p in ORBATS.glob("*.yaml"))


def find_profile(name: str, nation: str | None = None, role: str = "unit") -> UnitProfile:
    """A unit profile by name or id (case, spaces and dashes ignored), from every nation's
    ORBAT or from ``nation``'s. Unknown or ambiguous names raise with the close matches."""
    wanted = _key(name)
    pool = [nation] if nation else nations()
    found: dict[str, UnitProfile] = {}
    names: list[str] = []
    for n in pool:
        for profile in load_nation(n).units:
            names.append(profile.name)
            if wanted in (_key(profile.name), _key(profile.id)):
                found.setdefault(n, profile)
    stats = {"type", "armour", "weapon", "to_hit", "morale", "atgm", "traits"}
    distinct = {p.model_dump_json(include=stats) for p in found.values()}
    if not found:
        close = difflib.get_close_matches(name, sorted(set(names)), n=4, cutoff=0.5)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise UnknownUnitError(f"--{role} {name!r} is in no ORBAT ({', '.join(pool)}){hint}")
    if len(distinct) > 1:
        raise UmpireError(
            f"--{role} {name!r} is in several ORBATs with different stats "
            f"({', '.join(sorted(found))}); add --{role}-nation"
        )
    return next(iter(found.values()))


@dataclass(frozen=True)
class ShotQuery:
    """Everything ``umpire odds`` may be told about a shot (the names of its options)."""

    firer: str
    target: str
    range: float
    facing: str = "front"
    firer_moved: bool = False  # moved, or declared a move after the shot (book p15)
    reaction: bool = False
    target_moving: bool = False
    target_cover: str = "open"
    obscured: bool = False
    enemy_infantry_near: bool = False
    in_buildings: bool = False  # lets an ATGM fire at infantry or a support team
    markers: int = 0  # on the firer: each is -1 to hit
    target_markers: int = 0  # already on the target: fewer needed to remove it
    weapon: str = "main"
    shots: int = 1
    firer_nation: str | None = None
    target_nation: str | None = None
    house: HouseRules = field(default_factory=default_house_rules)


_QUERY_FIELDS = tuple(f for f in ShotQuery.__dataclass_fields__ if f != "house")


@dataclass(frozen=True)
class ShotAnswer:
    query: ShotQuery
    firer: UnitProfile
    target: UnitProfile
    plan: ShotPlan
    odds: ExactOdds


def plan_query(query: ShotQuery) -> tuple[UnitProfile, UnitProfile, ShotPlan]:
    """Plan the described shot with the game's rules; a forbidden shot raises with its rule."""
    if query.facing not in ("front", "side"):
        raise UmpireError(f"--facing {query.facing!r}: choose front or side")
    if query.target_cover not in COVERS:
        raise UmpireError(f"--target-cover {query.target_cover!r}: choose {', '.join(COVERS)}")
    if query.weapon not in WEAPONS:
        raise UmpireError(f"--weapon {query.weapon!r}: choose atgm, main, law or rockets")
    if not query.range > 0:  # NaN too
        raise UmpireError(f"--range {query.range}: must be more than 0 inches")
    if not math.isfinite(query.range):
        raise UmpireError(f"--range {query.range}: must be a finite distance in inches")
    if query.shots < 1 or query.markers < 0 or query.target_markers < 0:
        raise UmpireError("--shots must be at least 1 and markers at least 0")
    if query.shots > MAX_SHOTS:
        raise UmpireError(f"--shots {query.shots}: at most {MAX_SHOTS} identical shots")
    firer = find_profile(query.firer, query.firer_nation, "firer")
    target = find_profile(query.target, query.target_nation, "target")
    if query.weapon == "law" and not (firer.weapon and firer.weapon.infantry_at):
        raise UmpireError(f"--weapon law: {firer.name} has no LAW/RPG (weapon {firer.weapon})")
    if target.type is UnitType.HELICOPTER:  # sevendays.air.aa_reaction: an AA shot
        system = aa_system(firer, query.house)
        if system is None:
            raise UmpireError(
                f"{firer.name} has no air defence: only AA guns, SAMs and MANPADs engage "
                "helicopters (rule sevendays.air.helicopter)"
            )
        return (
            firer,
            target,
            aa_plan_from(system, query.range, query.markers, (firer.name, target.name)),
        )
    if query.target_moving and not query.reaction:
        raise UmpireError("--target-moving only counts for reaction fire: add --reaction")
    cover = "cover" if query.in_buildings and query.target_cover == "open" else query.target_cover
    situation = Situation(
        distance=query.range,
        obscured=query.obscured,
        target_cover=cover,
        target_in_buildings=query.in_buildings,
        enemy_foot_close=query.enemy_infantry_near,
        front=query.facing == "front",
    )
    plan = plan_from_situation(
        firer,
        target,
        WEAPONS[query.weapon],
        situation,
        moved=query.firer_moved,
        reaction=query.reaction,
        target_moving=query.target_moving,
        firer_markers=query.markers,
        names=(firer.name, target.name),
        house=query.house,
    )
    if isinstance(plan, Refusal):
        raise UmpireError(f"{plan.reason} (rule {plan.rule})")
    return firer, target, plan


_ANSWERS: dict[tuple[object, ...], ShotAnswer] = {}


def answer_shot(query: ShotQuery) -> ShotAnswer:
    """The exact odds of the described shot (remembered: asking again costs a look-up)."""
    key = (*(getattr(query, f) for f in _QUERY_FIELDS), query.house.model_dump_json())
    found = _ANSWERS.get(key)
    if found is None:
        firer, target, plan = plan_query(query)
        odds = exact_odds(
            plan, target, query.house, target_markers=query.target_markers, shots=query.shots
        )
        found = _ANSWERS[key] = ShotAnswer(query, firer, target, plan, odds)
    return found


def shot_json(answer: ShotAnswer) -> dict[str, Any]:
    plan = answer.plan
    return {
        "firer": answer.firer.name,
        "target": answer.target.name,
        "weapon": plan.weapon_kind,
        "dice": plan.dice,
        "need": plan.need,
        "modifiers": [{"rule": m.rule, "delta": -m.delta, "why": m.why} for m in plan.modifiers],
        **answer.odds.to_json(),
    }


def fraction_text(p: Fraction) -> str:
    return f"{float(p):7.2%}  ({p.numerator}/{p.denominator})"


def shot_lines(answer: ShotAnswer) -> list[str]:
    """The human-readable answer, each probability as a percentage and an exact fraction."""
    plan, odds = answer.plan, answer.odds
    shots = f"{odds.shots} shots" if odds.shots > 1 else "one shot"
    weapon = "AA fire" if plan.weapon_kind == "aa" else f"{plan.weapon_kind} {plan.weapon}"
    keep = " keep the highest" if plan.best_die else ""  # sevendays.fire.autocannon
    lines = [
        f"{answer.firer.name} ({weapon}) at {answer.target.name}, "
        f'{plan.range:g}", {shots}: {plan.dice}d10{keep} need {plan.need}+ '
        f"[{describe_modifiers(plan)}]",
    ]
    return lines + _odds_lines(odds, plan)


@dataclass(frozen=True)
class TestQuery:
    """A d6 test: activation (``tokens``, ``markers``) or reaction."""

    __test__ = False  # not a pytest test class

    kind: str  # "activation" or "reaction"
    tokens: int = 0
    markers: int = 0
    activator: str = "vehicle"  # reaction: the activating unit is a vehicle or foot
    covered: bool = False  # reaction: the activating unit is in cover or obscured
    atgm: bool = False  # reaction: the reactor fires an ATGM
    house: HouseRules = field(default_factory=default_house_rules)


def answer_test(query: TestQuery) -> dict[str, Any]:
    """The score needed and the exact chance of passing (a natural 6 always passes)."""
    # the turn and reaction modules load movement and shapely: imported for a test only
    from umpire.rulesets.sevendays.reactions import reaction_score
    from umpire.rulesets.sevendays.turns import activation_score

    if query.tokens < 0 or query.markers < 0:
        raise UmpireError("--tokens and --markers must be 0 or more")
    if query.kind == "activation":
        need = activation_score(query.tokens, query.markers)
        rule = "sevendays.activation.test"
    else:
        if query.activator not in ("vehicle", "foot"):
            raise UmpireError(f"--activator {query.activator!r}: choose vehicle or foot")
        extra = query.tokens + query.markers if query.house.reaction_tokens_and_markers else 0
        need = reaction_score(query.activator == "foot", query.covered, query.atgm, extra)
        rule = "sevendays.reaction.target"
    p = d6_test_odds(need, six_passes=True)
    return {"test": query.kind, "rule": rule, "need": need, "p_pass": p}


@dataclass(frozen=True)
class CloseCombatQuery:
    """A close combat (sevendays.close_combat, house): each side's friendly infantry and
    support within 2" and its morale markers."""

    support: int = 0  # the attacker's friends within 2"
    markers: int = 0  # on the attacker
    enemy_support: int = 0  # the defender's friends within 2"
    target_markers: int = 0  # on the defender


def close_combat_chance(query: CloseCombatQuery) -> DiceOff:
    """The very chance play rolls for this fight (attacker's score minus the defender's)."""
    # imported here: close combat's rules module brings movement and shapely (issue 19)
    from umpire.rulesets.sevendays.close_combat import CloseCombatRoll

    return CloseCombatRoll(
        query.support - query.markers, query.enemy_support - query.target_markers
    )


def answer_close_combat(query: CloseCombatQuery) -> dict[str, Any]:
    """Exact chances that the attacker wins, that it is a stand-off, that the attacker loses,
    and of each margin (the loser's new markers)."""
    if min(query.support, query.markers, query.enemy_support, query.target_markers) < 0:
        raise UmpireError("--support, --enemy-support and the markers must be 0 or more")
    from umpire.rulesets.sevendays.close_combat import RULE

    margins = dict(sorted(close_combat_chance(query).outcomes().items()))
    return {
        "test": "close_combat",
        "rule": RULE,
        "p_win": sum((p for m, p in margins.items() if m > 0), Fraction(0)),
        "p_tie": margins.get(0, Fraction(0)),
        "p_lose": sum((p for m, p in margins.items() if m < 0), Fraction(0)),
        "margins": margins,
    }


def close_combat_lines(query: CloseCombatQuery, answer: dict[str, Any]) -> list[str]:
    lines = [
        f"close combat: attacker d6 {query.support - query.markers:+d} "
        f"({query.support} support, {query.markers} marker(s)) against defender d6 "
        f"{query.enemy_support - query.target_markers:+d} ({query.enemy_support} support, "
        f"{query.target_markers} marker(s)) [{answer['rule']}]",
        f"  P(attacker wins)  {fraction_text(answer['p_win'])}",
        f"  P(stand-off)      {fraction_text(answer['p_tie'])}",
        f"  P(attacker loses) {fraction_text(answer['p_lose'])}",
        "  margin (attacker - defender; the loser takes that many markers):",
    ]
    lines += [f"    {m:>+3d}  {fraction_text(p)}" for m, p in answer["margins"].items()]
    return lines


def close_combat_json(answer: dict[str, Any]) -> dict[str, Any]:
    return {
        **{k: v for k, v in answer.items() if k != "margins"},
        "p_win": float(answer["p_win"]),
        "p_tie": float(answer["p_tie"]),
        "p_lose": float(answer["p_lose"]),
        "margins": {str(m): float(p) for m, p in answer["margins"].items()},
    }


@dataclass(frozen=True)
class CardQuery:
    """A Tactical Advantage card's dice: an attack (precision strike, airstrike, tank missile)
    or a bombardment at ``target``, or Against All Odds on a unit carrying ``markers``."""

    card: str
    target: str | None = None
    target_nation: str | None = None
    facing: str = "front"  # the tank missile's; the other attacks always hit the side
    target_cover: str = "open"
    markers: int = 0
    target_markers: int = 0
    house: HouseRules = field(default_factory=default_house_rules)


def answer_card(query: CardQuery) -> tuple[dict[str, Any], list[str]]:
    """The exact odds of a card's rolls, from the chances the card samples in play."""
    from umpire.rulesets.sevendays import cards

    deck = cards.load_deck().cards
    card = deck.get(query.card)
    if card is None:
        raise UmpireError(f"--card {query.card!r}: choose one of {', '.join(sorted(deck))}")
    rule = f"sevendays.cards.{card.id}"
    if card.id == "against_all_odds":
        removed = cards.against_all_odds_roll(query.markers).outcomes()
        lines = [f"{card.name} on a unit with {query.markers} marker(s): d6 removes that many"]
        lines += [f"    {k:>2} removed  {fraction_text(p)}" for k, p in sorted(removed.items())]
        data = {"card": card.id, "rule": rule, "removed": _floats(removed)}
        return data, lines
    if query.target is None:
        raise UmpireError(f"--card {card.id}: give --target")
    if query.target_cover not in COVERS:
        raise UmpireError(f"--target-cover {query.target_cover!r}: choose {', '.join(COVERS)}")
    target = find_profile(query.target, query.target_nation, "target")
    vehicle = target.is_vehicle
    if card.id in cards.BOMBARDMENTS:
        cover = "open" if vehicle else query.target_cover
        markers = cards.bombard_markers(card, vehicle, cover).outcomes()
        lines = [f"{card.name} on {target.name} ({cover}): d10 need {card.to_hit}+"]
        lines += [f"    {k:>2} marker(s)  {fraction_text(p)}" for k, p in sorted(markers.items())]
        return {"card": card.id, "rule": rule, "markers": _floats(markers)}, lines
    if not card.to_hit:
        raise UmpireError(f"--card {card.id} rolls no dice")
    if query.facing not in ("front", "side"):
        raise UmpireError(f"--facing {query.facing!r}: choose front or side")
    cover = "fortified" if query.target_cover == "fortified" and not vehicle else query.target_cover
    plan = cards.card_attack_plan(
        card,
        vehicle,
        cover,
        heat=card.id in cards.HEAT_ATTACKS,
        front=query.facing == "front" and card.id not in cards.SIDE_ATTACKS,
    )
    plan = plan._replace(firer=card.name, target=target.name)
    odds = exact_odds(plan, target, query.house, target_markers=query.target_markers)
    lines = [f"{card.name} at {target.name}: {plan.dice}d10 need {plan.need}+ [{rule}]"]
    lines += _odds_lines(odds, plan)
    return {
        "card": card.id,
        "rule": rule,
        "dice": plan.dice,
        "need": plan.need,
        **odds.to_json(),
    }, lines


def _floats(dist: dict[int, Fraction]) -> dict[str, float]:
    return {str(k): float(p) for k, p in sorted(dist.items())}


def _odds_lines(odds: ExactOdds, plan: ShotPlan) -> list[str]:
    lines = [f"  P(hit)         {fraction_text(odds.p_hit)}"]
    if odds.p_penetrate is not None:
        side = "front" if plan.front else "side"
        lines.append(f"  P(penetrate)   {fraction_text(odds.p_penetrate)}  ({side} armour)")
    lines += [
        f"  P(destroyed)   {fraction_text(odds.p_destroyed)}",
        f"  P(removed)     {fraction_text(odds.p_removed)}  (morale markers reach morale)",
        f"  P(out)         {fraction_text(odds.p_out)}",
        "  morale markers inflicted (target not destroyed):",
    ]
    return lines + [f"    {k:>2}  {fraction_text(p)}" for k, p in odds.markers.items()]
