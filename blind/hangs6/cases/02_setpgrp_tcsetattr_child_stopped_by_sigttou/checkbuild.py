# The build tool of android/ndk#627: it moves itself into a new process group (os.setpgrp(), so that it
# can kill its whole job later) and then turns off echo on its terminal. MODE selects the variant.
import os
import signal
import sys
import termios
import time

mode = sys.argv[1]
os.setpgrp()                                  # now a background process group of its terminal
attrs = termios.tcgetattr(0)
attrs[3] &= ~termios.ECHO
if mode == "fixed":
    # the fix: ignore SIGTTOU around tcsetattr() (as virtme-ng#453 and the ndk fix do)
    old = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    termios.tcsetattr(0, termios.TCSANOW, attrs)
    signal.signal(signal.SIGTTOU, old)
else:
    termios.tcsetattr(0, termios.TCSANOW, attrs)   # background group: SIGTTOU, default action: stop
time.sleep(0.2)
print("build done")
