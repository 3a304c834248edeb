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
    taken = {m.site for m in state.markers.values()}
    sites = [s for s in world(state).sites if s not in taken]
    return DeployStep(
        side="insurgents",
        kinds=("deploy",),
        zone={"sites": sites},
        pieces=(str(state.to_deploy[0]),),
        hidden=True,
        rule="bookgun.setup.deploy",
    )
