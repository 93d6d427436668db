# Look-alike: same runner, pty and build; the git host needs no credentials but answers after 16 s (404);
# git exits with an error and the runner sees EOF.
from common import run

if __name__ == "__main__":
    run(slow=16.0, terminal_prompt=True)
