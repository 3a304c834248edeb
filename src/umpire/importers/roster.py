"""Force files from any source, for Seven Days: a TOML force file or a BattleScribe / New
Recruit roster (``.ros``, ``.rosz``) read through :mod:`umpire.importers.battlescribe`.

The importers depend on the ruleset (its force model, ORBATs and deployment), never the
reverse: the ruleset reaches this module only through its declared ``forces`` capability
(:data:`FORCES`, imported on first use).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from umpire.core.errors import UmpireError
from umpire.rulesets.sevendays.forces import (
    Force,
    check_force,
    deploy_side,
    describe_force,
    load_force,
)

ROSTER_SUFFIXES = (".ros", ".rosz")
SIDES = ("nato", "pact")


def is_roster(path: Path | str) -> bool:
    return Path(path).suffix.lower() in ROSTER_SUFFIXES


def load_force_file(path: Path | str) -> Force:
    """A force from a TOML file, or from a BattleScribe roster through the importer.

    A roster entry that cannot be mapped to the nation's ORBAT is an error (see
    :func:`umpire.importers.battlescribe.roster_to_force` for the full report)."""
    if is_roster(path):
        from umpire.importers.battlescribe import roster_to_force

        force, report = roster_to_force(path)
        report.raise_for_unmapped_units()
        return force
    return load_force(path)


def check_force_file(path: Path | str, points_limit: int | None = None) -> list[str]:
    """``umpire force check FILE``: load and check a force file or roster and list it.
    Raises :class:`~umpire.core.errors.DataFileError` (one line) where it is not legal."""
    force = load_force_file(path)
    summary = check_force(force, points_limit, source=path)
    return describe_force(force, summary, points_limit)


class SevenDaysForces:
    """The Seven Days ``forces`` capability (:class:`umpire.core.ruleset.ForcesCapability`):
    the ``--nato-force`` / ``--pact-force`` files of a game and ``umpire force
    new|check|import``."""

    def prepare_options(self, scenario: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options ready for a record: a force file named in ``forces`` (TOML or a roster) is
        loaded, checked and deployed into the side's zone, so the record holds the deployed
        units and replays without the file."""
        from umpire.core.ruleset import get_ruleset
        from umpire.rulesets.sevendays.ruleset import SevenDays

        ruleset = get_ruleset("sevendays")
        assert isinstance(ruleset, SevenDays)
        out = dict(options)
        forces = dict(out.get("forces") or {})
        if not any(isinstance(v, str | Path) for v in forces.values()):
            return out
        world = ruleset.world_for(scenario, out.get("house_rules"))
        for side, value in forces.items():
            if side not in SIDES:
                raise UmpireError(f"no side {side!r} to field a force; sides: nato, pact")
            if isinstance(value, str | Path):
                spec = world.scenario.spec.sides[side]
                force = load_force_file(value)
                forces[side] = deploy_side(force, side, spec, world.table, source=value)
        out["forces"] = forces
        return out

    def check_file(self, path: Path, points: int | None) -> list[str]:
        return check_force_file(path, points)

    def new_force(self, nation: str, points: int, out: Path | None, name: str) -> Path | None:
        from umpire.rulesets.sevendays.force_builder import new_force

        return new_force(nation, points, out, name=name)

    def import_roster(
        self, roster: Path, out: Path, data_dir: Path | None, mapping: Path | None = None
    ) -> tuple[int, list[str]]:
        """Convert a roster into a TOML force file: the entries written and the report.

        With ``data_dir`` (the .gst/.cat files the roster was built with) the unit profiles
        come from the catalogue's own stat lines and costs, read as ``mapping`` (a YAML
        mapping file) says where the importer does not recognise them
        (:mod:`umpire.importers.catalogue`); without it, entries are matched to the built-in
        ORBATs by name."""
        if data_dir is not None:
            from umpire.importers.catalogue import import_with_catalogues

            force, found = import_with_catalogues(roster, out, data_dir, mapping)
            return len(force.units), found.lines()
        if mapping is not None:
            raise UmpireError("--mapping needs --data (the catalogues the mapping is for)")
        from umpire.importers.battlescribe import import_roster

        force, report = import_roster(roster, out)
        return len(force.units), report.lines()


FORCES = SevenDaysForces()
