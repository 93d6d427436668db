"""The names of the failure patterns, their remediation hints, and a match's shape: shared by
the native shapes (`patterns`) and the Python-level ones (`pyshapes`)."""

from __future__ import annotations

from dataclasses import dataclass

from gvlstress.judge import words
from gvlstress.model.evidence import Fact
from gvlstress.model.waitfor import End

# Pattern names (report.md, run.json and selftest use these words).
POOL_EXHAUSTION = "rayon pool exhaustion"
LOCK_ACROSS = "lock held across a parallel region"
LOCK_ORDER = "lock-order inversion"
GIL_HELD = "GIL held across a rayon region"
FORK_AFTER_INIT = "fork after pool start"
LIVELOCK = "livelock/spin"
CRASH = "crash"
NONDETERMINISTIC_ERROR = "nondeterministic error"
ERROR = "error in every worker"
CLOSED_WAIT = "a wait no thread or process left can end"
PY_LOCK_ORDER = "lock-order inversion (threading locks)"
JOIN_BLOCKED = "join on a blocked thread"
NESTED_MONITOR = "a lock held across a wait for another thread"
LOST_WAKEUP = "lost wakeup (a wait nobody can notify)"
JOIN_BEFORE_DRAIN = "join before draining a pipe"
EXECUTOR_WEDGED = "executor wedged by a worker killed while sending its result"
PIPE_CYCLE = "cycle of pipe waits across processes"
WAIT_CYCLE = "cycle of waits across processes"
IMPORT_LOCK = "import lock held across a wait"
GIL_LOCK_INVERSION = "GIL <-> native lock inversion"
FORK_HELD_LOCK = "fork while another thread held a lock"
EXIT_HANG = "interpreter exit waits for a thread that never ends"
EXIT_DESTRUCTOR = "a native destructor at interpreter exit waits forever"
EXIT_FINALIZER_WAIT = "a finalizer at interpreter exit waits for a thread that can no longer run"
QUEUE_JOIN = "Queue.join() without task_done()"
THREAD_POOL_EXHAUSTION = "thread pool exhaustion (tasks wait on tasks queued behind them)"
PEER_GONE = "waits for a peer that has gone"
LOST_TASK = "a process pool lost a task"
GIL_SPIN = "the GIL's holder spins waiting for threads that need the GIL"
SIGNAL_HANDLER_LOCK = "a signal handler waits for a lock the code it interrupted holds"
LOST_RESULTS = "a process pool's result handler has died"
RESULTS_SELF_WAIT = "a process pool's result thread waits for a result of its own pool"
FORK_HANDLER = "fork() waits in an at-fork handler for threads that will not come"
DEAD_LOCK_HOLDER = "a lock shared between processes is held by a process that died"
RESPAWN_LOOP = "a process pool respawns workers that die at start"
FEEDER_DROPPED = "a queue's feeder thread dropped an item (it failed to pickle)"
LOOP_LOST_WAKEUP = "an event loop waits for a wake-up that will not come"
FOREVER_PARTY = "waits for a process that itself waits forever"
SELF_LOCK = "a thread waits for what it holds itself (its own code re-entered)"
LOOP_SELF_WAIT = "an event loop's thread blocks on work only its own loop would run"
SELF_FD = "a process waits on a pipe, socket or file lock whose other end only it holds"
MUTEX_OWNER_GONE = "a thread exited holding a mutex"
STOPPED_CHILD = "waits for a child stopped by job control that nothing will continue"

HINTS = {
    EXIT_FINALIZER_WAIT: "a __del__ (or a weakref callback) that runs while the interpreter tears its modules "
    "down waits for another thread (a server's stop(), a pool's shutdown(), an Event a worker sets), but "
    "once finalization starts no other Python thread runs again (daemon threads stop at their next "
    "bytecode): stop servers, pools and clients explicitly before exit (a `with` block, try/finally, "
    "atexit.register), never from __del__ at exit",
    MUTEX_OWNER_GONE: "a thread that ends (returns, pthread_exit, an exception or a longjmp past the unlock, a "
    "cancelled thread) without unlocking a mutex leaves it locked for good, and every later lock waits: "
    "unlock on every path (a guard object, `with`), or make the mutex robust so the next locker is told",
    SELF_FD: "the waiter holds the other end itself, so nothing else can write, close or unlock it: a "
    "pipe's write end a parent kept after fork (close it before reading for EOF), both ends of a pipe a "
    "child inherited as its stdin (close_fds=True; pass only the ends you mean to), a second open of a "
    "file the process has already locked with flock (lock a file once per process: reuse the lock "
    "object), a request to a server whose only serving thread is the one waiting (its own URL from inside a "
    "handler: serve with threads, or call the handler directly); close or release your own copy before you wait",
    DEAD_LOCK_HOLDER: "a multiprocessing Lock or Queue lock is a POSIX semaphore, which has no owner: a "
    "process killed while it holds one (SIGKILL, the OOM killer, Process.terminate() of a worker waiting "
    "in Queue.get or a Pool worker waiting for a task) never releases it, and every process waiting on it "
    "waits forever (CPython gh-96062): never kill a process that uses a shared queue or lock, stop it "
    "cooperatively (a sentinel, an Event checked between timed gets); prefer "
    "concurrent.futures.ProcessPoolExecutor, which fails with BrokenProcessPool when a worker dies; give "
    "acquire() and get() a timeout; a pool or queue left this way cannot be repaired: make a new one",
    RESPAWN_LOOP: "every worker the pool starts dies before it takes a task (its traceback is on stderr, once "
    "per worker) and multiprocessing.Pool starts another at once: an initializer that raises (CPython "
    "bpo-43306), or, under spawn/forkserver, a script that creates the pool at top level without "
    '`if __name__ == "__main__":` (each worker re-runs it); fix the initializer or add the guard; '
    "concurrent.futures.ProcessPoolExecutor raises BrokenProcessPool instead of respawning",
    FEEDER_DROPPED: "multiprocessing.Queue.put() returns before the object is pickled: the queue's feeder "
    "thread pickles it later and, when that fails (a lock, an open file, a lambda inside it), prints the "
    "traceback and drops the item, so the get() waiting for it never returns (CPython bpo-40195): make the "
    "object picklable (leave the lock out in __getstate__), pickle it yourself before put() so the error "
    "is raised where it can be sent instead, or use multiprocessing.SimpleQueue, whose put() pickles in "
    "the caller; give get() a timeout",
    LOOP_LOST_WAKEUP: "a task waits for a wake-up another task consumed while it was cancelled: "
    "asyncio.wait_for() before 3.12 returns the result and swallows the task's cancellation when both "
    "arrive together (CPython bpo-42130: use `async with asyncio.timeout()`, or 3.12+); "
    "asyncio.Condition.notify() before 3.13 is lost when the woken task is cancelled (gh-112202: 3.13+, or "
    "notify again when a wait ends by an exception); never swallow CancelledError, and put a timeout on "
    "waits for other tasks",
    SIGNAL_HANDLER_LOCK: "Python runs a signal handler on the main thread between two bytecodes of whatever "
    "it interrupted: a handler that takes a lock (a queue's put, logging, print to a locked stream) waits "
    "for the interrupted frame, which cannot resume; set a flag or use signal.set_wakeup_fd / "
    "loop.add_signal_handler in the handler, and do the work outside it (queue.SimpleQueue is reentrant)",
    GIL_SPIN: "a native library waits (spinning) for its worker threads while it holds the GIL, and the "
    "workers call back into Python (a registered filesystem, a UDF, a Python object column): the library must "
    "release the GIL before it waits (pybind11: gil_scoped_release; PyO3: py.detach); until it does, keep "
    "Python callbacks out of its parallel work (threads=1, or a native filesystem/reader)",
    LOST_TASK: "a worker that dies while it holds a task (killed by the OOM killer, exit() in a library, "
    "sys.exit in the task) takes the task with it, and multiprocessing.Pool replaces the worker without "
    "re-running it (CPython bpo-22393): use concurrent.futures.ProcessPoolExecutor (it raises "
    "BrokenProcessPool) or billiard's Pool (WorkerLostError), give result waits a timeout, keep tasks from "
    "calling exit(); with max_tasks_per_child on CPython < 3.13.8/3.14 (gh-115634), leave it unset",
    LOST_RESULTS: "the pool's thread that delivers results died (its traceback is on stderr): an exception "
    "raised in a task that cannot be rebuilt in the parent (pass every constructor argument to "
    "Exception.__init__ so it unpickles; CPython bpo-35311), or shutdown(wait=False) with max_tasks_per_child "
    "(gh-119592): fix the exception class or the shutdown, and give result waits a timeout",
    RESULTS_SELF_WAIT: "a callback (apply_async's callback, a future's done-callback) runs on the thread that "
    "delivers the pool's results (the Pool's result handler, the executor's manager thread); one that waits for "
    "another result of the same pool (pool.apply, .get(), future.result()) blocks the only thread that could "
    "deliver it: in a callback only submit (apply_async, submit) and return, or hand the wait to another thread",
    FORK_HANDLER: "a library's pthread_atfork prepare handler waits for its own threads to quiesce, and they "
    "wait on nothing that will wake them: upgrade the library (this is its bug), disable its fork support, "
    "or start children with spawn/forkserver before the library starts its threads",
    PEER_GONE: "the process at the other end of the pipe or socket exited (or never came) while this one "
    "kept a copy of its end, so no EOF or error can arrive: close your copy of the other end right after "
    "starting the peer (then its death reads as EOF), give the wait a timeout, or, for a messaging "
    "library's teardown, set a finite linger (ZeroMQ: LINGER=0) before closing",
    FORK_HELD_LOCK: "fork() copies a lock in whatever state it is, but only the forking thread: start "
    "children with spawn or forkserver, or take the lock around fork() (os.register_at_fork(before="
    "lock.acquire, after_in_parent=lock.release, after_in_child=lock.release), or pthread_atfork's "
    "prepare/parent/child for a native lock); never take locks in a preexec_fn or a child handler alone",
    EXIT_DESTRUCTOR: "an object freed while the interpreter finalizes (a Rust Drop, a C++ destructor, a "
    "tp_dealloc) joins a thread or takes a lock that can no longer be released: tell worker threads to stop "
    "before joining them in Drop, or close the object explicitly before exit (a context manager, atexit)",
    EXIT_HANG: "the interpreter joins every non-daemon thread at exit: end the thread (a stop event, a "
    "sentinel on its queue) before main returns, or make it a daemon if it holds nothing that must be "
    "flushed",
    QUEUE_JOIN: "call q.task_done() once for every q.get() (in a finally), or wait on something else "
    "than join()",
    GIL_LOCK_INVERSION: "release the GIL before blocking on a native lock (PyO3: py.detach / allow_threads "
    "around lock() or a OnceLock's init), and never wait for the GIL while holding a lock a GIL holder may "
    "take; for lazy initialisation use PyO3's GILOnceCell / once-with-py helpers",
    IMPORT_LOCK: "a module's top-level code waits (join, result, a lock) for a thread that imports that "
    "same module, and the import lock is held until the top-level code returns: start threads and wait for "
    "them in a function called after the import, never at import time",
    THREAD_POOL_EXHAUSTION: "a task of a pool waits for another task of the same pool, and every worker is "
    "such a waiting task, so the awaited tasks never start: run the inner work inline, give it its own "
    "executor, or size the pool above the nesting depth",
    WAIT_CYCLE: "each process waits for another of the cycle (bytes on a socket or pipe only it can send or "
    "read, its exit, a file lock it holds) and that one waits too: give one side a timeout, read and write "
    "concurrently (a selector, a reader thread, communicate()), close the ends a process does not use (the "
    "parent's copy of a child's stdin), or let one side go first by protocol",
    PIPE_CYCLE: "each process waits on a pipe only the next one can serve (a read nobody writes, a write into a "
    "full pipe nobody reads), and that one waits too: read every pipe you are written to concurrently "
    "(subprocess's communicate(), a selector over both), or give the waits a timeout",
    POOL_EXHAUSTION: "run blocking stages (channel consumers, I/O) on their own ThreadPool::install or threads, "
    "never as jobs of the pool whose jobs wait for them",
    LOCK_ACROSS: "don't hold a lock across par_iter/join: copy what the jobs need out of the guard first",
    LOCK_ORDER: "take locks in one global order (or merge them into one lock, or use try_lock with back-off)",
    GIL_HELD: "release the GIL around the parallel call (PyO3: py.detach / allow_threads) and keep "
    "Python callbacks out of rayon jobs",
    FORK_AFTER_INIT: "start workers with spawn or forkserver, or don't touch the pool before fork()",
    LIVELOCK: "the busiest frames spin on a condition nobody changes: use a blocking wait (with a timeout)",
    CRASH: "a job aborted or faulted: rerun with RUST_BACKTRACE=1, check dmesg, or run one worker under gdb",
    NONDETERMINISTIC_ERROR: "same code, same data, different outcome: look for a race in initialisation "
    "(lazy statics, concurrent open) around the traceback's frames",
    ERROR: "every worker raised the same way: a plain bug or bad input, see the traceback",
    CLOSED_WAIT: "no catalogued shape matched: the chain says what each thread waits on and that none left "
    "can end it; read its links (the threads, futexes and descriptors) and fix the one whose wait should "
    "have had an end (a timeout, a release, a notify)",
    FOREVER_PARTY: "the process that holds the other end (a pipe's write end, a socket, a file lock) waits "
    "for nothing that will come (a sleep with no end, pause() with no handler): often a background child or "
    "grandchild that inherited the descriptor and outlived its parent (subprocess.run(capture_output=True) "
    "of a script that starts a daemon; a lock file's descriptor passed to a helper): open descriptors "
    "O_CLOEXEC and pass none you do not mean to (close_fds, no pass_fds), redirect a daemon's output away from "
    "the pipe, start helpers in their own session and end the group; or end that process. A pause() whose "
    "signal came blocked runs with a mask its parent's thread had at fork (a server blocking SIGALRM): "
    "unblock it before starting the child (signal.pthread_sigmask) or in the child",
    STOPPED_CHILD: "the child touched its terminal from a background process group of its own (tcsetattr or a "
    "write with TOSTOP: SIGTTOU; a read: SIGTTIN) while its parent waits for its exit without WUNTRACED, and "
    "no shell does job control for that group: ignore SIGTTOU/SIGTTIN around the terminal call, keep the "
    "tool in its parent's group, give its group the terminal first (tcsetpgrp), or wait with WUNTRACED and "
    "continue it (SIGCONT) as a shell's fg does",
    SELF_LOCK: "code that holds a non-reentrant lock, or a slot of a bounded pool (a connection, a worker), was "
    "re-entered on the same thread (a signal handler, a garbage-collector finalizer or __del__, a callback, a "
    "logging handler that logs, a redirect or retry that calls the same function again) and the inner call "
    "waits for what the outer call holds: use an RLock, release (or return to the pool) before re-entering, "
    "size the pool above the nesting depth, or keep the re-entering code from taking it (do the work outside "
    "the handler or finalizer: set a flag, queue it with SimpleQueue)",
    LOOP_SELF_WAIT: "a coroutine or callback running on the event loop's own thread blocks on a result only "
    "that loop would produce (run_coroutine_threadsafe(...).result(), a concurrent Future, a lock a task "
    "holds): await it instead (asyncio.wrap_future, await the coroutine), or run the blocking call in "
    "loop.run_in_executor",
    PY_LOCK_ORDER: "take the locks in one global order (e.g. sort by id, or one lock for both), "
    "or acquire(timeout=...) and back off",
    JOIN_BLOCKED: "the joined thread is itself blocked: fix what it waits for, or join with a timeout "
    "and report it",
    NESTED_MONITOR: "a thread waits (Condition.wait, Event.wait, a queue's get or put, join) while it holds "
    "another lock, which the thread that would wake it must take first (a nested monitor lockout): release "
    "that lock before waiting, or wait on a Condition built on it (threading.Condition(lock)), so the wait "
    "releases it",
    LOST_WAKEUP: "notify under the same lock after changing the state, and wait in a loop on a predicate "
    "(Condition.wait_for), with a timeout",
    JOIN_BEFORE_DRAIN: "read the child's results (queue.get / pipe) before join(); a child cannot exit while "
    "its queue's feeder is blocked writing to a full pipe",
    EXECUTOR_WEDGED: "keep results small: write large ones (arrays, weights) to files and return their paths; "
    "leave the workers memory headroom (the OOM killer picks the biggest process, and a task's memory "
    "peaks while it pickles and sends its result); CPython's ProcessPoolExecutor does not notice a "
    "worker that dies in the middle of sending a result (its manager thread waits for the rest of the "
    "frame forever), so put a timeout on the results you wait for",
}


SIGNS = {
    EXIT_FINALIZER_WAIT: "the main thread in Py_FinalizeEx past the point where other threads stop (module "
    "teardown, the last collection), running Python code (a __del__) that waits, untimed, to acquire a "
    "Python lock: only another Python thread could release it",
    MUTEX_OWNER_GONE: "a thread parked in a pthread mutex's lock wait, and the mutex's owner field (glibc "
    "records the thread that locked it) names a thread that no longer exists",
    DEAD_LOCK_HOLDER: "processes wait, untimed, on one shared futex in a /dev/shm semaphore (value 0) and no "
    "live process mapping it can be its holder: the one whose place it is (a pool worker reading the task "
    "pipe, a consumer inside Queue.get) is gone, and bytes wait unread in the pipe the lock guards",
    RESPAWN_LOOP: "the launcher waits for pool results while its workers keep changing (new pids every few "
    "tens or hundreds of milliseconds, each exiting with status 1 before it takes a task) and the tasks "
    "stay queued in the pool's task pipe",
    FEEDER_DROPPED: "a process waits in Queue.get() on an empty pipe; the producer that put into that queue "
    "is alive, its feeder thread idle with its last object not pickled (the `_feed` frame's `obj` is the "
    "item, not bytes), the pickling error's traceback on its stderr",
    LOOP_LOST_WAKEUP: "an event loop's only thread waits in epoll_wait with nothing left that can wake it "
    "(no timer but a task's own idle timeout, no descriptor but the loop's self-pipe, no other thread), "
    "the main task awaiting a task that should have ended",
    POOL_EXHAUSTION: "every pool thread is inside a job blocked in a channel or park, none idle in "
    "rayon_core::sleep, and a caller waits in LockLatch::wait_and_reset",
    LOCK_ACROSS: "pool threads wait on one mutex (Mutex::lock_contended); a thread not waiting for it waits in "
    "the rayon latch for those very jobs",
    LOCK_ORDER: "threads wait on two or more different mutexes; where the mutexes are glibc's, each one's owner "
    "field names a thread that waits for the next mutex, round to the first (the cycle is stated)",
    GIL_HELD: "the GIL's owner (py-spy owns_gil) waits in the rayon latch while pool threads wait in take_gil / "
    "PyGILState_Ensure",
    FORK_AFTER_INIT: "a fork that never exec'd waits for a pool none of whose threads exists in it (no rayon "
    "pool thread, no OpenMP worker, no tokio runtime thread among all its threads), or spins or re-arms a "
    "timed wait inside a library whose threads exist only in the parent; needs a complete native view",
    EXECUTOR_WEDGED: "a worker dead and unreaped while its future stays pending for 1 s, the pool never "
    "reported broken; the manager thread in Connection._recv (read() inside a frame); the other workers "
    "parked in _sendback_result on the result queue's lock",
    LIVELOCK: "no progress, CPU burning (judged at the timeout); the busiest frames shown",
    CRASH: "the worker died: exit code or signal, and the cause found in its stderr tail",
    NONDETERMINISTIC_ERROR: "some workers raised, siblings running the same code did not",
    ERROR: "every worker of a wave raised the same way",
    GIL_LOCK_INVERSION: "the GIL's owner waits on a native lock (not a rayon latch) while other threads wait "
    "in take_gil",
    FORK_HELD_LOCK: "a fork that never exec'd, one thread, waiting to acquire a lock; or a thread still "
    "inside fork() (at-fork handlers on its stack) waiting on a lock",
    IMPORT_LOCK: "a thread in importlib's _ModuleLock.acquire while the thread running that module's "
    "top-level code waits",
    THREAD_POOL_EXHAUSTION: "every ThreadPoolExecutor worker is inside a task waiting on a future of its own "
    "pool, queued behind it",
    EXIT_HANG: "the main thread in threading._shutdown, joining a thread that never ends",
    EXIT_DESTRUCTOR: "the main thread in Py_FinalizeEx (no Python frame left) waits in a join or a lock: a "
    "Rust Drop, a C++ destructor, a tp_dealloc",
    QUEUE_JOIN: "a thread in Queue.join(), the consumers in Queue.get()",
    PY_LOCK_ORDER: "Python threads wait to acquire different threading locks, each held by another of them "
    "(each thread's line in the evidence)",
    JOIN_BLOCKED: "Thread.join on a thread that is itself blocked",
    NESTED_MONITOR: "exactly one Python thread waits to acquire a plain lock and every other one waits on a "
    "Condition, Event or queue, or joins: the lock's holder is one of them, and the lock's waiter is the only "
    "thread left to wake them",
    LOST_WAKEUP: "a Condition or Event wait with no thread left that could notify it",
    JOIN_BEFORE_DRAIN: "with --tree: a parent in wait4() for a child whose queue feeder is blocked writing a "
    "pipe only the parent reads",
    WAIT_CYCLE: "with --tree: every thread of each process parked with no CPU in a wait only the other processes of "
    "the cycle can end (a socket or pipe whose other end only they hold, a child's exit, a file lock they hold); "
    "no timer, no end outside them, no byte waiting to be read",
    PIPE_CYCLE: "with --tree: processes in read() (or in write() into a full pipe), each served only by the "
    "next one in a ring",
    PEER_GONE: "the waited pipe or socket, followed to its other end, is held by no process, or only by the "
    "waiter itself; or, in a library's teardown, every thread waits on the process's own descriptors",
    LOST_TASK: "the launcher waits for a Pool / ProcessPoolExecutor result, every worker waits for a task, "
    "no byte is in flight and the task handler has nothing left to hand out",
    GIL_SPIN: "the GIL's holder burns CPU in a library's loop whose frame never changes, while threads that "
    "library started wait for the GIL",
    LOST_RESULTS: "the launcher waits for a pool result and the thread that delivers results "
    "(_handle_results, the executor's manager thread) no longer exists",
    RESULTS_SELF_WAIT: "the launcher waits for a pool result and the thread that delivers results "
    "(_handle_results, the executor's manager thread) waits, untimed, for a result of its own pool",
    FORK_HANDLER: "__run_prefork_handlers on a forking thread's stack, spinning or in a re-armed timed "
    "wait, every other thread waiting on a lock, a timer or its own descriptors",
    SIGNAL_HANDLER_LOCK: "a thread acquiring a lock with CPython's signal dispatch (_PyErr_CheckSignalsTstate) "
    "below the acquire on its stack, and no other thread that could release it",
    CLOSED_WAIT: "a closed wait set that no catalogued shape explains: every thread that could end the wait "
    "waits too, with no timer, thread, signal or outside end left; the chain lists each",
    FOREVER_PARTY: "with --tree: a wait on a pipe, socket or file lock whose other end only a process that itself "
    "waits forever holds (every thread parked in a sleep with more than a week left, or in pause() with no "
    "handler of a waking signal), followed to it even outside the job's tree",
    STOPPED_CHILD: "a process in wait4()/waitid() for its child without WUNTRACED (WSTOPPED), the child stopped "
    "(state T) in a read, write or ioctl of its controlling terminal from a background group it leads, and "
    "no other process of the look running or in a timed wait that could continue it",
    SELF_LOCK: "the one blocked thread (a lock acquire, a Condition or queue wait) waits under a function that "
    "appears again further down its own stack (re-entered through a signal handler, a finalizer, a callback, a "
    "redirect), and no other thread could end the wait; or a thread waits to lock a glibc pthread mutex whose "
    "owner field names that same thread",
    SELF_FD: "with --tree or across processes: every thread of the process is parked with no CPU in a read, "
    "write or file-lock wait whose other end only the process itself holds (a TCP connection not accepted "
    "yet: the listener whose queue it waits in; or on a lock of its own), with "
    "no handler of a waking signal (SIGCHLD included) that could write or release it",
    LOOP_SELF_WAIT: "a thread running an asyncio event loop (its run_forever/_run_once frames below) blocks "
    "in an untimed wait (a Future's result, a Condition, a lock) and no other thread could end it",
}
"""What identifies each pattern in the facts (the documentation's catalogue; `HINTS` says what to do)."""

FAMILIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Native pools (rayon)", (POOL_EXHAUSTION, LOCK_ACROSS, LOCK_ORDER, GIL_HELD, GIL_LOCK_INVERSION)),
    ("Fork", (FORK_AFTER_INIT, FORK_HELD_LOCK, FORK_HANDLER)),
    (
        "Python threads and interpreter exit",
        (
            PY_LOCK_ORDER,
            JOIN_BLOCKED,
            NESTED_MONITOR,
            LOST_WAKEUP,
            IMPORT_LOCK,
            THREAD_POOL_EXHAUSTION,
            QUEUE_JOIN,
            SIGNAL_HANDLER_LOCK,
            SELF_LOCK,
            EXIT_HANG,
            MUTEX_OWNER_GONE,
        ),
    ),
    (
        "Processes and pools",
        (
            EXECUTOR_WEDGED,
            JOIN_BEFORE_DRAIN,
            PIPE_CYCLE,
            WAIT_CYCLE,
            FOREVER_PARTY,
            LOST_TASK,
            LOST_RESULTS,
            RESULTS_SELF_WAIT,
            PEER_GONE,
            SELF_FD,
            DEAD_LOCK_HOLDER,
            RESPAWN_LOOP,
            FEEDER_DROPPED,
            STOPPED_CHILD,
        ),
    ),
    ("Event loops (asyncio)", (LOOP_LOST_WAKEUP, LOOP_SELF_WAIT)),
    ("Spins and exits", (GIL_SPIN, LIVELOCK, EXIT_DESTRUCTOR, EXIT_FINALIZER_WAIT)),
    ("Failures and the rest", (CRASH, NONDETERMINISTIC_ERROR, ERROR, CLOSED_WAIT)),
)
"""Every pattern once, in the families the documentation lists them by."""


@dataclass(frozen=True)
class Match:
    """A pattern a rule named, its hint, and the facts that show it."""

    pattern: str
    hint: str
    facts: tuple[Fact, ...]
    end: End | None = None
    """Where this match's wait-for chain ends when the rule's facts decide it (a lost task with no
    worker left ends in nobody, one a dead worker took in a gone party); None: the pattern's
    own end (`judge.ends.END_OF`)."""

    @property
    def evidence(self) -> tuple[str, ...]:
        """The facts worded (`judge.words`)."""
        return words.evidence(self.facts)
