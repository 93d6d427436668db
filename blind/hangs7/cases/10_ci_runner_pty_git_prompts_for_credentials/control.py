# Control: the fix of nautobot#3925: GIT_TERMINAL_PROMPT=0 in git's environment; git fails at once
# ("terminal prompts disabled") and the build ends.
from common import run

if __name__ == "__main__":
    run(slow=0, terminal_prompt=False)
