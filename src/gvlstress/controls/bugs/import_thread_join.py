"""The threading docs' rule for imports: a module's top-level code must not start a thread and
wait for it; the thread's own import blocks on the module's import lock, held by the importer.
Control: the module starts and joins the thread from a function called after the import."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if sys.argv[1:2] == ["control"]:
    os.environ["GVLSTRESS_BUG_CONTROL"] = "1"

import _import_target

if os.environ.get("GVLSTRESS_BUG_CONTROL"):
    _import_target.start_and_join()
