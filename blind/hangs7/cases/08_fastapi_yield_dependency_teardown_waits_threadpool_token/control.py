# Control: the fixed release FastAPI 0.82.0: the teardown of dependencies with yield runs without the default
# threadpool's capacity limiter, so connections are returned and every request is served.
from common import run

if __name__ == "__main__":
    run(pool_size=5, requests=60, work=0.2)
