# Look-alike: an import-time thread joined by the importer, which works 16 s and imports nothing.
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mod_look  # noqa: E402
print("done")
