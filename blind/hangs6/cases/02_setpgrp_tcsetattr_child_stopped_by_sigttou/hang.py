# android/ndk#627 ("./checkbuild.py hangs if it isn't the process group leader on startup"; also
# uutils/coreutils#13722, arighi/virtme-ng#453): a Python tool calls os.setpgrp() and then tcsetattr() on its
# terminal; as a background process group it gets SIGTTOU, whose default action stops it. Nothing sends
# SIGCONT: the shell waits for it (waitpid without WUNTRACED), the terminal emulator waits for the shell.
# CPython 3.11.7.
from common import run

run("bug")
