"""Victory (rhine.victory.scenario): the scenario's victory points, for cities the Pact
holds, Pact units off the west edge and each side's losses, and the end of the game by
sudden death or after the last turn."""

from __future__ import annotations

import itertools

from umpire.core.events import Event, note
from umpire.rulesets.rhine.model import World
from umpire.rulesets.rhine.position import ST, world


class _Scoring:
    """A map's victory count made once (rhine.victory.scenario): each city hex that scores
    with its points, the units strong enough to score by leaving the map, and the points
    and divisors of the scenario."""

    __slots__ = (
        "world",
        "cities",
        "city_hexes",
        "city_points",
        "scorers",
        "exit_vp",
        "per_nato",
        "per_pact",
    )

    def __init__(self, w: World) -> None:
        v = w.spec.victory
        self.world = w
        self.cities = tuple(
            (h, v.city_vp[name]) for h, name in w.city_of.items() if name in v.city_vp
        )
        self.city_hexes = tuple(h for h, _ in self.cities)
        self.city_points = tuple(vp for _, vp in self.cities)
        least = v.exit_min_strength
        self.scorers = tuple(u for u, info in w.units.items() if info.strength >= least)
        self.exit_vp = v.exit_vp
        self.per_nato = v.per_nato_losses
        self.per_pact = v.per_pact_losses


_SCORING: dict[int, _Scoring] = {}
_PACT = "pact".__eq__


def _scoring(w: World) -> _Scoring:
    found = _SCORING.get(id(w))
    if found is None or found.world is not w:
        found = _SCORING[id(w)] = _Scoring(w)
    return found


def victory_points(state: ST) -> dict[str, int]:
    sc = _scoring(world(state))
    # (read at every observation: each count taken over all cities, all scorers at once)
    held = map(_PACT, map(state.control.get, sc.city_hexes))
    cities = sum(itertools.compress(sc.city_points, held))
    exits = 0
    status = state.status
    if "exited" in status.values():  # (most positions have none)
        exits = sc.exit_vp * list(map(status.get, sc.scorers)).count("exited")
    losses = state.losses
    kills = losses["nato"] // sc.per_nato
    own = losses["pact"] // sc.per_pact
    return {
        "cities": cities,
        "exits": exits,
        "nato_losses": kills,
        "pact_losses": -own,
        "total": cities + exits + kills - own,
    }


def exited(state: ST, side: str) -> int:
    w = world(state)
    return sum(1 for u, s in state.status.items() if s == "exited" and w.units[u].side == side)


def check_victory(state: ST) -> list[Event]:
    w = world(state)
    v = w.spec.victory
    for name in v.sudden_death:
        hexes = [h for h, n in w.city_of.items() if n == name]
        if hexes and all(state.control.get(h) == "pact" for h in hexes):
            state.outcome = {
                "winner": "pact",
                "how": f"sudden death: the Pact holds all of {name}",
                "level": "decisive",
                "vp": victory_points(state),
            }
            return [note("victory", state.outcome["how"], "rhine.victory.scenario")]
    if state.flow.turn >= len(w.turns):
        vp = victory_points(state)
        total = vp["total"]
        if total >= v.pact_decisive:
            winner, level = "pact", "decisive"
        elif total >= v.pact_marginal:
            winner, level = "pact", "marginal"
        elif total >= v.draw:
            winner, level = "draw", "draw"
        else:
            winner, level = "nato", "victory"
        how = f"victory points {total} at the end of turn {state.flow.turn}: {level}"
        state.outcome = {"winner": winner, "how": how, "level": level, "vp": vp}
        return [note("victory", how, "rhine.victory.scenario", vp=vp)]
    return []
