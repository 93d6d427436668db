"""Campaigns of many launches: shards and their merge, comparing runs, exploring settings,
sweeps, Slurm arrays, and the statistics that decide from them (intervals, exact tests, SPRT).
Pure where they can be: the API runs the waves, the reporters draw the results.

Modules (one line each, from their docstrings):

- `compare`: `gvlstress compare`: hang rates of runs side by side, with intervals and an exact
  test.
- `explore`: `hunt --explore`: spread waves over settings and move them toward the most race-
  prone one.
- `shards`: Campaigns of many launches: shards, merging shard results, and planning how many are
  needed.
- `shrink`: `shrink`: from a run that hung, the smallest setting that still hangs at a stated
  rate.
- `slurm`: `gvlstress slurm`: a Slurm job array of shards plus a merge job that runs however
  they end.
- `stats`: A race is a probability: hang rates with honest intervals.
- `sweep`: `gvlstress sweep`: one run per cell of a grid (workers x threads x amplifiers), a
  hazard table.
"""
