"""``reactions.nearest_first`` (reactors tried nearest first, sevendays.reaction.*: the
engine's search for a possible reaction stops at the first one) sorts by distance exactly as
the plain ``sorted`` with a per-unit key does, ties kept in the order given (issue 19: the
distances are worked out once and the units sorted by index)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.rulesets.sevendays.reactions import nearest_first
from umpire.rulesets.sevendays.state import Side, Unit

# few distinct coordinates, so that ties in distance are common
coord = st.sampled_from([0.0, 1.5, 3.0, -3.0, 4.0, 12.25, 7.0])


def _unit(n: int, x: float, y: float) -> Unit:
    return Unit(uid=f"u{n}", side=Side("nato"), profile="p", name=f"u{n}", x=x, y=y, facing=0.0)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(coord, coord), max_size=30), coord, coord)
def test_nearest_first_is_the_plain_sort(
    places: list[tuple[float, float]], ax: float, ay: float
) -> None:
    units = [_unit(n, x, y) for n, (x, y) in enumerate(places)]
    activator = _unit(-1, ax, ay)
    plain = sorted(units, key=lambda u: (u.x - activator.x) ** 2 + (u.y - activator.y) ** 2)
    assert [u.uid for u in nearest_first(units, activator)] == [u.uid for u in plain]
    assert all(a is b for a, b in zip(nearest_first(units, activator), plain, strict=True))
