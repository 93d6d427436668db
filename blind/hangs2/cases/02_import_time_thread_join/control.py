# Control: the documented rule (an import must not spawn a thread and wait for it): the thread is
# started and joined after the import has finished.
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mod_control  # noqa: E402
t = mod_control.start()
print("ready", flush=True)
t.join()
print("done")
