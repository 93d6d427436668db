"""Stdlib-level helpers both sides use: the harness and its spawned workers.

The heartbeat board, thread knobs, redaction, reads that cannot block, the watchdog, process
trees, helper processes fed on their stdin, the wave's cgroups and the cache directory. Nothing here imports another layer of
gvlstress (but `errors`), so the worker can import it and stay light.
"""
