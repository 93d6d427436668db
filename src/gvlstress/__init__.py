"""gvlstress: reproduce, detect and explain deadlocks in native (rayon/PyO3) data loaders.

This package root imports nothing: spawned workers import ``gvlstress.worker`` through it, and
the worker must stay light (stdlib + the target).
"""

__version__ = "0.1.0"
