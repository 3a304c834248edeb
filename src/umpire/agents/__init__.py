"""Players that are not people: random and scripted agents (and, later, search)."""

from umpire.agents.base import Agent, RandomAgent, View, make_agent

__all__ = ["Agent", "RandomAgent", "View", "make_agent"]
