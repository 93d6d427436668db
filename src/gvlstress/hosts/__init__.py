"""Another host's conditions, off the page: the host profile file ``doctor --export`` writes and
``run --like`` reads (`profile_file`), and how a profile maps onto this machine's settings
(`mapping`). File I/O and pure mapping only: no process is read here (`probes.profile` reads this
machine) and nothing is applied (`api.like` applies the mapping as a Scenario transformation).

Modules (one line each, from their docstrings):

- `mapping`: ``--like``: a host profile mapped onto settings of this machine, and what cannot be
  made.
- `profile_file`: A host profile as TOML: written for people (each key commented), read
  strictly.
"""
