"""Analysis: exact odds, Monte Carlo simulation, balance."""
