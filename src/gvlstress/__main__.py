"""``python -m gvlstress``: the same entry point as the console script."""

from gvlstress.cli import main

if __name__ == "__main__":  # spawn imports this module as __mp_main__; it must not run the CLI
    main()
