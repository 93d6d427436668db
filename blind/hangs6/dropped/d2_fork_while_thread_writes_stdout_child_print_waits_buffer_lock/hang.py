# ansible/ansible#79522 (backport #79539, "Prevent stdio deadlock in forked children": "background threads
# writing to stdout/stderr can cause children to deadlock if a thread in the parent holds the internal lock
# on the BufferedWriter wrapper"; also python/cpython#50970): a progress thread writes to stdout while the
# main thread forks workers (fork without exec); a worker forked while the thread is inside a write
# inherits stdout's buffer lock held by a thread that does not exist in the child, and its first print()
# waits forever. The parent waits for the worker. (The program forks until a worker is stuck - usually the
# first.) CPython 3.11.7.
from common import run

run(fork_safe=False)
