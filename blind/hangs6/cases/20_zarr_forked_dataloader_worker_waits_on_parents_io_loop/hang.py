# zarr-developers/zarr-python#2812 ("multiprocessing support": reports of stalls in forked processes; fixed by
# zarr-developers/zarr-python#2815, which resets the loop and IO thread in the child; see also
# czbiohub-sf/iohub#416): zarr 3's synchronous API submits coroutines to its IO event loop running on a
# background thread; a forked DataLoader worker inherits the loop object but not the thread, and its first
# read waits (concurrent.futures.wait, no timeout) for a coroutine nothing will run. The parent joins the
# worker. zarr 3.0.2 (numpy, numcodecs) on CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run()
