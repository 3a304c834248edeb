"""The ``deployment`` capability of The Book and The Gun: the insurgents' concealed deployment
(bookgun.setup.deploy) is a deployment step. Each placement puts the next piece to deploy (a
concealed unit or a dummy) under a concealment marker at one of the scenario's sites not yet
taken; the army sees only the markers."""

from __future__ import annotations

from umpire.core.ruleset import DeployStep
from umpire.rulesets.bookgun.common import world
from umpire.rulesets.bookgun.state import BookGunState


def step(state: BookGunState) -> DeployStep | None:
    """The placement now due, if the insurgents are deploying."""
    if state.flow.phase != "setup" or state.flow.over or not state.to_deploy:
        return None
    from umpire.rulesets.bookgun.ruleset import fits_at

    taken = {m.site for m in state.markers.values()}
    w = world(state)
    unit = state.units.get(str(state.to_deploy[0]))
    # a unit goes only where it fits (bookgun.building.capacity), as the deploy menu offers
    sites = [
        s
        for s in w.sites
        if s not in taken and (unit is None or fits_at(state, unit, w.sites[s][1]))
    ]
    return DeployStep(
        side="insurgents",
        kinds=("deploy",),
        zone={"sites": sites},
        pieces=(str(state.to_deploy[0]),),
        hidden=True,
        rule="bookgun.setup.deploy",
    )
