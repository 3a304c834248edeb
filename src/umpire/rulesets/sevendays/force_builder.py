"""Build a Seven Days force interactively: the nation's ORBAT with points, add, remove, done.

The dialogue is plain functions over ``ask`` (prompt -> the user's line; EOFError ends it) and
``say`` (prints a line), so it runs in a terminal (``input``/``print``) and in tests alike.
Points and legality are enforced as the user goes: an addition that would break the points
limit is refused, an APC is only bought together with its passenger, and ``done`` runs the
full check of :func:`umpire.rulesets.sevendays.forces.check_force`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from umpire.core.errors import DataFileError
from umpire.rulesets.sevendays.forces import (
    Force,
    ForceEntry,
    can_carry,
    capacity,
    check_force,
    force_problems,
    suggest,
    write_force,
)
from umpire.rulesets.sevendays.orbat import Orbat, UnitProfile
from umpire.rulesets.sevendays.scenario import load_nation

Ask = Callable[[str], str]
Say = Callable[[str], None]

HELP = """\
commands:
  list                      the ORBAT again (number, id, points)
  add UNIT [COUNT]          buy units (UNIT: number or id); an APC asks for its passenger
  add UNIT [COUNT] in APC   buy foot units riding in APCs already bought (APC: its id)
  remove LINE               take a line of the force away (LINE: number shown by 'show')
  commander LINE            make the first unit of that line the battlegroup commander
  name TEXT                 name the force
  show                      the force so far, with points used and left
  done                      check the force and finish
  quit                      leave without a force"""


def orbat_table(orbat: Orbat) -> list[str]:
    """The ORBAT as numbered lines: id, name, type, points, BP and notable traits."""
    out = [f"{orbat.name} ORBAT:"]
    for number, unit in enumerate(orbat.units, 1):
        marks = []
        if unit.is_apc:
            marks.append(f"APC, carries {capacity(unit)}")
        extra = f"  ({'; '.join(marks)})" if marks else ""
        out.append(
            f"{number:3}. {unit.id:<18} {unit.name:<22} {unit.type.value:<10} "
            f"{unit.points:4} pts {unit.bp:3} BP{extra}"
        )
    return out


class _Builder:
    def __init__(self, orbat: Orbat, points: int, ask: Ask, say: Say, name: str) -> None:
        self.orbat = orbat
        self.limit = points
        self.ask = ask
        self.say = say
        self.name = name
        self.entries: list[ForceEntry] = []

    # -- helpers --------------------------------------------------------------------------
    def profile(self, entry: ForceEntry) -> UnitProfile:
        return self.orbat.profile(entry.profile)

    def spent(self) -> int:
        return sum(self.profile(e).points * e.count for e in self.entries)

    def left(self) -> int:
        return self.limit - self.spent()

    def find(self, word: str) -> UnitProfile | None:
        if word.isdigit() and 1 <= int(word) <= len(self.orbat.units):
            return self.orbat.units[int(word) - 1]
        for unit in self.orbat.units:
            if unit.id == word.lower():
                return unit
        self.say(
            f"no unit {word!r} in the {self.orbat.nation} ORBAT"
            + suggest(word.lower(), [u.id for u in self.orbat.units])
        )
        return None

    def force(self) -> Force:
        return Force(
            nation=self.orbat.nation, name=self.name, points=self.limit, units=self.entries
        )

    def room(self, apc: str) -> int:
        """Free seats in the APCs of profile ``apc`` already bought."""
        seats = sum(capacity(self.profile(e)) * e.count for e in self.entries if e.profile == apc)
        used = sum(e.count for e in self.entries if e.embarked_in == apc)
        return seats - used

    # -- commands -------------------------------------------------------------------------
    def show(self) -> None:
        if not self.entries:
            self.say(f"no units yet; {self.limit} points to spend")
            return
        self.say(f"{self.name or 'force'} ({self.orbat.nation}):")
        for number, entry in enumerate(self.entries, 1):
            unit = self.profile(entry)
            ride = f", riding in {entry.embarked_in}" if entry.embarked_in else ""
            boss = ", commander" if entry.commander else ""
            self.say(
                f"{number:3}. {entry.count} x {unit.name} ({unit.id}) "
                f"{unit.points * entry.count} pts{ride}{boss}"
            )
        self.say(f"{self.spent()} of {self.limit} points used, {self.left()} left")

    def add(self, words: list[str]) -> None:
        if not words:
            self.say("add what? (add UNIT [COUNT] [in APC])")
            return
        transport: str | None = None
        if "in" in words:
            at = words.index("in")
            if at + 1 >= len(words):
                self.say("in which APC? (add UNIT [COUNT] in APC)")
                return
            transport, words = words[at + 1].lower(), words[:at]
        unit = self.find(words[0]) if words else None
        if unit is None:
            return
        count = 1
        if len(words) > 1:
            if not words[1].isdigit() or not 1 <= int(words[1]) <= 99:
                self.say(f"count {words[1]!r} must be a number from 1 to 99")
                return
            count = int(words[1])
        if transport is not None:
            self.add_riders(unit, count, transport)
        elif unit.is_apc:
            self.add_apcs(unit, count)
        else:
            self.buy([ForceEntry(profile=unit.id, count=count)])

    def add_riders(self, unit: UnitProfile, count: int, transport: str) -> None:
        carrier = next((u for u in self.orbat.units if u.id == transport), None)
        if carrier is None or not any(e.profile == transport for e in self.entries):
            self.say(f"no {transport!r} in the force yet; buy the APC first (add {transport})")
            return
        if not can_carry(carrier, unit):
            self.say(f"{unit.name} cannot ride in {carrier.name}")
            return
        if self.room(transport) < count:
            self.say(f"the {carrier.name}s bought have room for {self.room(transport)} more")
            return
        self.buy([ForceEntry(profile=unit.id, count=count, embarked_in=transport)])

    def add_apcs(self, apc: UnitProfile, count: int) -> None:
        riders = [u for u in self.orbat.units if can_carry(apc, u)]
        self.say(
            f"{apc.name} is an APC: it is bought only with a passenger. Who rides in "
            f"{'it' if count == 1 else 'each'}?"
        )
        for unit in riders:
            number = self.orbat.units.index(unit) + 1
            self.say(f"{number:3}. {unit.id:<18} {unit.name:<22} {unit.points:4} pts")
        answer = self.ask("passenger (number or id, empty to cancel): ").strip()
        if not answer:
            self.say("cancelled")
            return
        rider = self.find(answer)
        if rider is None:
            return
        if rider not in riders:
            self.say(f"{rider.name} cannot ride in {apc.name}")
            return
        self.buy(
            [
                ForceEntry(profile=apc.id, count=count),
                ForceEntry(profile=rider.id, count=count, embarked_in=apc.id),
            ]
        )

    def buy(self, entries: list[ForceEntry]) -> None:
        cost = sum(self.orbat.profile(e.profile).points * e.count for e in entries)
        if cost > self.left():
            self.say(f"that costs {cost} points and only {self.left()} are left")
            return
        self.entries += entries
        bought = " and ".join(f"{e.count} x {self.orbat.profile(e.profile).name}" for e in entries)
        self.say(f"added {bought} ({cost} pts); {self.left()} points left")

    def line(self, words: list[str], verb: str) -> int | None:
        if len(words) != 1 or not words[0].isdigit() or not 1 <= int(words[0]) <= len(self.entries):
            self.say(f"{verb} which line? (1 to {len(self.entries)}, see 'show')")
            return None
        return int(words[0]) - 1

    def remove(self, words: list[str]) -> None:
        index = self.line(words, "remove")
        if index is None:
            return
        gone = self.entries.pop(index)
        self.say(f"removed {gone.count} x {self.profile(gone).name}")
        # riders who lost their seat walk (the last bought first)
        for position in range(len(self.entries) - 1, -1, -1):
            excess = -self.room(gone.profile)
            entry = self.entries[position]
            if excess <= 0:
                break
            if entry.embarked_in != gone.profile:
                continue
            walkers = min(excess, entry.count)
            self.say(f"{walkers} x {self.profile(entry).name} now walk (their APC was removed)")
            free = entry.model_copy(update={"count": walkers, "embarked_in": None})
            if walkers == entry.count:
                self.entries[position] = free
            else:
                kept = entry.model_copy(update={"count": entry.count - walkers})
                self.entries[position : position + 1] = [kept, free]

    def commander(self, words: list[str]) -> None:
        index = self.line(words, "commander:")
        if index is None:
            return
        self.entries = [
            e.model_copy(update={"commander": i == index}) for i, e in enumerate(self.entries)
        ]
        self.say(f"the battlegroup commander is the first {self.profile(self.entries[index]).name}")

    def done(self) -> Force | None:
        if not self.entries:
            self.say("the force has no units yet")
            return None
        force = self.force()
        problems = force_problems(force)
        if problems:
            self.say("not finished yet:")
            for problem in problems:
                self.say(f"  {problem.split(': ', 1)[-1]}")
            return None
        summary = check_force(force)
        self.say(
            f"force complete: {len(summary.units)} units, {summary.points} points, {summary.bp} BP"
        )
        return force


def build_force(nation: str, points: int, ask: Ask, say: Say, name: str = "") -> Force | None:
    """Run the dialogue; the finished, checked :class:`Force`, or None if the user quits."""
    if points < 1:
        raise DataFileError(f"points limit must be positive, not {points}")
    builder = _Builder(load_nation(nation), points, ask, say, name)
    for line in orbat_table(builder.orbat):
        say(line)
    say(f"{points} points to spend; 'help' lists the commands")
    while True:
        try:
            text = ask(f"[{builder.spent()}/{points} pts] > ")
        except EOFError:
            say("")
            return None
        words = text.split()
        if not words:
            continue
        verb, rest = words[0].lower(), words[1:]
        if verb in ("quit", "exit", "q"):
            return None
        if verb in ("help", "?", "h"):
            for row in HELP.splitlines():
                say(row)
        elif verb in ("list", "l", "orbat"):
            for row in orbat_table(builder.orbat):
                say(row)
        elif verb in ("show", "s"):
            builder.show()
        elif verb in ("add", "a", "buy"):
            builder.add(rest)
        elif verb in ("remove", "rm", "r"):
            builder.remove(rest)
        elif verb == "commander":
            builder.commander(rest)
        elif verb == "name":
            builder.name = " ".join(text.split()[1:])
            say(f"named {builder.name!r}")
        elif verb in ("done", "finish", "d"):
            force = builder.done()
            if force is not None:
                return force
        else:
            say(f"unknown command {verb!r}; 'help' lists the commands")


def new_force(
    nation: str,
    points: int,
    out: Path | str | None = None,
    ask: Ask = input,
    say: Say = print,
    name: str = "",
) -> Path | None:
    """``umpire force new sevendays --nation N --points P [--out FILE]``: build a force
    interactively and write it as TOML to ``out`` (default ``<nation>-<points>.toml``).
    Returns the file written, or None when the user quit without a force."""
    force = build_force(nation, points, ask, say, name)
    if force is None:
        say("no force written")
        return None
    path = Path(out) if out is not None else Path(f"{nation}-{points}.toml")
    write_force(force, path)
    say(f"wrote {path}")
    return path
