"""How long a look watches: constants the CLI's options show as defaults, in a module that
imports nothing (a command's ``--help`` reads them without loading the look)."""

LOOK_WINDOW_S = 2.0
"""`inspect`'s window for what its first samples and stacks leave open: long enough for three looks
at every stack and for a spin's CPU to show against a GIL waiter's ticks, short enough to stay
under 3 s on a 17-thread worker."""
RUN_WINDOW_S = 1.0
"""How long ``run`` (and ``watch``) look over a window at what one snapshot left open."""
