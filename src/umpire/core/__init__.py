"""Ruleset-agnostic engine core: state, random stream, events, records, registry."""
