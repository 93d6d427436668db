# fastapi/fastapi#3205, fixed by fastapi/fastapi#5122 (FastAPI 0.82.0, "Allow exit code for dependencies with
# `yield` to always execute, by removing capacity limiter for them"): with FastAPI 0.81.0 the setup AND the teardown
# of a sync dependency with yield run in anyio's default threadpool (CapacityLimiter, 40 tokens), like sync
# sync endpoints; the endpoint itself is async. 60 concurrent requests against a pool of 5 DB connections: 40 threads hold every token while blocked in
# the connection pool's checkout; the connections come back only in the dependencies' teardown, which waits for a
# threadpool token. FastAPI 0.81.0 (Starlette 0.19.1, anyio 3.7.1), requests through httpx's ASGI transport.
from common import run

if __name__ == "__main__":
    run(pool_size=5, requests=60, work=0.2)
