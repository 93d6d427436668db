# nautobot/nautobot#3924, fixed by nautobot/nautobot#3925 ("don't let Git hang at password prompt on clone/fetch";
# see also gitpython-developers/GitPython#295): when git needs HTTP credentials and a terminal is available, it
# prompts on /dev/tty and reads the answer from it. A CI runner starts the build on a pty and only reads the pty
# until EOF; the build's `git ls-remote` to a private host (401) prompts "Username for ..." and waits for input on
# that same pty: the runner waits for git's output/EOF, git waits for the runner's input. git 2.47, CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(slow=0, terminal_prompt=True)
