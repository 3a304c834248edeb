"""Fixed-size encodings of a side's decision: the action menu and the observation tensor.

Both are generic over the ruleset contract: they read ``legal_actions`` and a side's
``observation`` and nothing else, so every registered ruleset gets them with no extra code.

Actions: sub-decisions in a fixed ``Discrete(slots)``
------------------------------------------------------
A game action is chosen in up to three *levels*: its ``kind``, then its ``unit`` (the piece it
applies to), then its *detail* (everything else: target, point, cell, option, units, card).
At each level the values that some legal action still allows are sorted (kinds and unit ids
as strings, details by their canonical JSON) and the chosen value is the index into that sorted
list. An index is written in base ``slots`` with as many digits as the list needs (one digit up
to ``slots`` values, two up to ``slots**2``...), and a level with a single value takes no digit.
An action's *path* is the concatenation of those digits; each env step chooses one digit, with
the mask saying exactly which digits some legal action still extends. A decision with one
legal action still takes one step (the path ``(0,)``), so every game action costs the agent at
least one step. Paths are prefix-free, so :meth:`Menu.encode` and :meth:`Menu.decode` are
inverses on the legal actions.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

import numpy as np

from umpire.core.actions import Action

#: levels of a sub-decision, in order
LEVELS = ("kind", "unit", "detail")
#: observation keys the encoder never reads: a game's random-stream seed or state would let a
#: side predict future dice (the core promises observations never hold them)
DROPPED_KEYS = frozenset({"seed", "rng"})


def detail_key(action: Action) -> str:
    """Everything of ``action`` but its kind and unit, as canonical JSON (``""`` if nothing)."""
    data = action.to_dict()
    data.pop("kind", None)
    data.pop("unit", None)
    return json.dumps(data, sort_keys=True, separators=(",", ":")) if data else ""


def _digits_needed(count: int, slots: int) -> int:
    if count <= 1:
        return 0
    digits, capacity = 1, slots
    while capacity < count:
        digits += 1
        capacity *= slots
    return digits


def _to_digits(index: int, width: int, slots: int) -> tuple[int, ...]:
    out = []
    for _ in range(width):
        out.append(index % slots)
        index //= slots
    return tuple(reversed(out))


class Menu:
    """The legal actions at one decision as a prefix-free code over ``range(slots)``."""

    __slots__ = ("slots", "actions", "_paths", "_by_path", "_next", "_labels")

    def __init__(self, legal: Sequence[Action], slots: int) -> None:
        if slots < 2:
            raise ValueError("slots must be at least 2")
        self.slots = slots
        self.actions = list(legal)
        self._paths: dict[Action, tuple[int, ...]] = {}
        self._by_path: dict[tuple[int, ...], Action] = {}
        self._next: dict[tuple[int, ...], dict[int, str]] = {}
        # group by the levels: kind -> unit -> detail -> action
        tree: dict[str, dict[str, dict[str, Action]]] = {}
        for action in self.actions:
            tree.setdefault(action.kind, {}).setdefault(action.unit or "", {})[
                detail_key(action)
            ] = action
        for kind_i, kind in enumerate(sorted(tree)):
            units = tree[kind]
            kind_digits = _to_digits(kind_i, _digits_needed(len(tree), slots), slots)
            for unit_i, unit in enumerate(sorted(units)):
                details = units[unit]
                unit_digits = _to_digits(unit_i, _digits_needed(len(units), slots), slots)
                for detail_i, detail in enumerate(sorted(details)):
                    detail_digits = _to_digits(detail_i, _digits_needed(len(details), slots), slots)
                    path = kind_digits + unit_digits + detail_digits
                    labels = (
                        [kind] * len(kind_digits)
                        + [unit] * len(unit_digits)
                        + [detail] * len(detail_digits)
                    )
                    if not path:  # the only legal action: still one step
                        path, labels = (0,), [kind]
                    action = details[detail]
                    self._paths[action] = path
                    self._by_path[path] = action
                    for depth in range(len(path)):
                        options = self._next.setdefault(path[:depth], {})
                        # a digit that completes a level names that level's value
                        options.setdefault(path[depth], labels[depth])

    def __len__(self) -> int:
        return len(self.actions)

    def encode(self, action: Action) -> tuple[int, ...]:
        """The digits that choose ``action`` (``KeyError`` if it is not legal here)."""
        return self._paths[action]

    def decode(self, path: Sequence[int]) -> Action | None:
        """The action a complete path chooses, ``None`` for a proper prefix of some path
        (raises ``KeyError`` if no legal action starts with ``path``)."""
        key = tuple(int(d) for d in path)
        found = self._by_path.get(key)
        if found is not None:
            return found
        if key in self._next:
            return None
        raise KeyError(key)

    def options(self, prefix: Sequence[int]) -> dict[int, str]:
        """The digits some legal action extends ``prefix`` with, each with the value (kind,
        unit id or detail) it stands for."""
        return self._next.get(tuple(prefix), {})

    def mask(self, prefix: Sequence[int]) -> np.ndarray:
        """``mask[i] == 1`` exactly when some legal action's path starts ``prefix + (i,)``."""
        out = np.zeros(self.slots, dtype=np.int8)
        for digit in self.options(prefix):
            out[digit] = 1
        return out

    def level(self, prefix: Sequence[int]) -> int:
        """How many digits have been chosen (the sub-decision depth)."""
        return len(prefix)


# -- observations ------------------------------------------------------------------------------
def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    return value


class ObservationEncoder:
    """A side's observation (nested mappings and lists) as a fixed-length float32 vector.

    Layout: ``[bias, depth one-hot (8), slot features (slots x 4), hashed observation (size)]``.

    - the bias is always 1 (a vector is never all zeros);
    - the depth one-hot says which digit of the sub-decision is being chosen (7+ share the
      last cell), and the slot features describe each allowed digit by a signed hash of the
      value it stands for (a kind name, a unit id, a detail), zero for digits not allowed;
    - the hashed part is feature hashing of the observation's leaves: a leaf's path (mapping
      keys, list positions, or a list item's ``id``) selects a cell by CRC-32; numbers add
      ``sign * log1p(|v|)``, strings/None/booleans add +-1 at the cell of ``path=value``.
      Cells are clipped to [-8, 8]. Only the observation is read, so two states a side cannot
      tell apart encode to the same bits.
    """

    DEPTHS = 8
    SLOT_FEATURES = 4
    CLIP = 8.0

    def __init__(self, slots: int, size: int = 512) -> None:
        self.slots = slots
        self.size = size
        self.length = 1 + self.DEPTHS + slots * self.SLOT_FEATURES + size
        self._hash_cache: dict[str, tuple[int, float]] = {}

    def _bucket(self, text: str) -> tuple[int, float]:
        found = self._hash_cache.get(text)
        if found is None:
            h = zlib.crc32(text.encode("utf-8"))
            found = (h % self.size, 1.0 if (h >> 31) & 1 else -1.0)
            if len(self._hash_cache) > 200_000:
                self._hash_cache.clear()
            self._hash_cache[text] = found
        return found

    def _walk(self, root: Any, out: np.ndarray) -> None:
        bucket = self._bucket
        log1p, copysign, isfinite = math.log1p, math.copysign, math.isfinite
        stack: list[tuple[Any, str]] = [(root, "")]
        pop, push = stack.pop, stack.append
        while stack:
            value, path = pop()
            kind = type(value)
            if kind is str or kind is bool or value is None:
                cell, sign = bucket(f"{path}={value}")
                out[cell] += sign
            elif kind is int or kind is float:
                v = float(value)
                if isfinite(v):
                    cell, sign = bucket(path)
                    out[cell] += sign * copysign(log1p(abs(v)), v)
            elif kind is dict or isinstance(value, Mapping):
                top = path == ""
                for key, item in value.items():
                    key = _plain(key)
                    if top and key in DROPPED_KEYS:
                        continue
                    push((item, f"{path}/{key}"))
            elif kind is list or kind is tuple:
                for index, item in enumerate(value):
                    name: Any = index
                    if type(item) is dict:
                        ident = item.get("id")
                        if type(ident) is str:
                            name = ident
                    push((item, f"{path}[{name}]"))
            elif isinstance(value, Enum):
                push((value.value, path))
            elif isinstance(value, set | frozenset):
                push((sorted(value, key=repr), path))
            elif isinstance(value, list | tuple):
                push((list(value), path))
            elif isinstance(value, str):
                push((str.__str__(value), path))
            elif isinstance(value, int | float | np.integer | np.floating):
                push((float(value), path))
            else:
                cell, sign = bucket(f"{path}={value}")
                out[cell] += sign

    def encode(
        self,
        observation: Mapping[str, Any],
        depth: int = 0,
        options: Mapping[int, str] | None = None,
    ) -> np.ndarray:
        return self.assemble(self.hashed(observation), depth, options)

    def hashed(self, observation: Mapping[str, Any]) -> np.ndarray:
        """The hashed part of the tensor alone (it depends on the observation only, so a
        caller may keep it while the digits of one decision are chosen)."""
        hashed = np.zeros(self.size, dtype=np.float64)
        self._walk(observation, hashed)
        np.clip(hashed, -self.CLIP, self.CLIP, out=hashed)
        return hashed

    def assemble(
        self,
        hashed: np.ndarray,
        depth: int = 0,
        options: Mapping[int, str] | None = None,
    ) -> np.ndarray:
        """The whole tensor from the hashed part, the depth and the allowed digits' values."""
        out = np.zeros(self.length, dtype=np.float32)
        out[0] = 1.0
        out[1 + min(depth, self.DEPTHS - 1)] = 1.0
        base = 1 + self.DEPTHS
        for digit, label in (options or {}).items():
            h = zlib.crc32(label.encode("utf-8"))
            cell = base + digit * self.SLOT_FEATURES
            out[cell] = 1.0
            for k in range(1, self.SLOT_FEATURES):
                out[cell + k] = 1.0 if (h >> k) & 1 else -1.0
        out[base + self.slots * self.SLOT_FEATURES :] = hashed
        return out

    @property
    def low(self) -> float:
        return -self.CLIP

    @property
    def high(self) -> float:
        return self.CLIP
