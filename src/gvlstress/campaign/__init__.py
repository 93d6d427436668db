"""Campaigns of many launches: shards and their merge, comparing runs, exploring settings,
sweeps, Slurm arrays, and the statistics that decide from them (intervals, exact tests, SPRT).
Pure where they can be: the API runs the waves, the reporters draw the results."""
