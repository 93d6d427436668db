# Look-alike: FastAPI 0.81.0, a pool of 1 connection and 3 concurrent requests (threadpool tokens to spare):
# requests wait in checkout for the connection; each request holds it for 5.4 s; all are served after ~16 s.
from common import run

if __name__ == "__main__":
    run(pool_size=1, requests=3, work=5.4)
