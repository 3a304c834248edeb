"""What the players are told to roll: the dice, the rule, and the score needed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from umpire.core.chance import Chance, CountAtLeast, DiceOff, Draw, Roll, TableLookup, Test


def _dice(count: int, sides: int) -> str:
    return f"{count}d{sides}"


def roll_request(count: int, sides: int, chance: Chance[Any] | None) -> str:
    """One line: which dice to roll, for which rule, and what they need. A ruleset's own
    chance may word it (a ``table_words(count, sides)`` method: "roll 2d10 for T-72A 2 at
    Chieftain 1 ...: 6+ hits")."""
    own = getattr(chance, "table_words", None)
    if callable(own):
        return str(own(count, sides))
    dice = _dice(count, sides)
    if isinstance(chance, Test):
        natural = chance.need - chance.net_modifier
        mods = "".join(f", {m.value:+d} {m.why}" for m in chance.modifiers if m.value)
        if chance.keep == "sum" or count == 1:
            what = "total" if chance.keep == "sum" and count > 1 else "die"
            if chance.net_modifier:
                need = f"needs a {what} of {natural}+ ({chance.need}+ after modifiers"
                mods += ")"
            else:
                need = f"needs {chance.need}+"
        elif chance.keep == "lowest":
            need = f"the lowest die needs {natural}+"
        else:
            need = f"needs one die of {natural}+"
        extra = ""
        if chance.auto_pass and chance.keep != "sum":
            extra += f"; a natural {'/'.join(map(str, sorted(chance.auto_pass)))} always passes"
        if chance.auto_fail and chance.keep != "sum":
            extra += f"; a natural {'/'.join(map(str, sorted(chance.auto_fail)))} always fails"
        return f"roll {dice} for {chance.rule}: {need}{mods}{extra}"
    if isinstance(chance, CountAtLeast):
        return f"roll {dice} for {chance.rule}: each die of {chance.need}+ is a hit"
    if isinstance(chance, TableLookup):
        drm = f" {chance.drm:+d}" if chance.drm else ""
        need = f", {chance.need}+ succeeds" if chance.need is not None else ""
        return f"roll {dice} for {chance.rule}{drm} on the table{need}"
    if isinstance(chance, DiceOff):
        return (
            f"roll {dice} for {chance.rule}: first die {chance.first_mod:+d}, "
            f"second die {chance.second_mod:+d} (a dice-off)"
        )
    if isinstance(chance, Roll) and chance.rule:
        return f"roll {dice} for {chance.rule}"
    return f"roll {dice}"


def draw_request(items: Sequence[Any], chance: Chance[Any] | None) -> str:
    rule = f" for {chance.rule}" if isinstance(chance, Draw) else ""
    shown = ", ".join(sorted({str(i) for i in items}))
    return f"draw one card{rule} and type it ({shown})"
