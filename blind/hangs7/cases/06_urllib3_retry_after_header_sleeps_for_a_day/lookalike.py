# Look-alike: the server asks for `Retry-After: 16`; the client sleeps 16 s, retries and gets 200. urllib3 2.2.3.
from common import run

if __name__ == "__main__":
    run(retry_after="16", respect=True)
