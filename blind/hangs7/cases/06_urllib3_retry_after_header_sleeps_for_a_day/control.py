# Control: the workaround discussed in the issue: Retry(respect_retry_after_header=False): the client backs off
# by its own backoff_factor (0.2 s) and the retry gets 200. urllib3 2.2.3.
from common import run

if __name__ == "__main__":
    run(retry_after="86400", respect=False)
