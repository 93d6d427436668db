# Control: the fix used downstream (huggingface/huggingface_hub#4065): tqdm.set_lock(threading.RLock())
# before any bar, so no lock is shared with worker processes; the killed worker leaves nothing held.
# tqdm 4.66.1 on CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(thread_lock=True)
