"""The wording of evidence (`judge.words`): each kind of fact -> its sentence, one row each.

Rules are tested on the facts they return; this table is where the sentences are tested."""

from __future__ import annotations

import typing

import pytest

from gvlstress.judge import words
from gvlstress.model import evidence as ev

TABLE: tuple[tuple[ev.Fact, str], ...] = (
    (ev.Note("anything at all"), "anything at all"),
    (ev.ChainStep("thread 7 waits in read() on fd 3"), "thread 7 waits in read() on fd 3"),
    (
        ev.Parked(3, 4, 0.0123, 0.5, "no heartbeat for 4.2s after 0 batch(es)"),
        "3/4 threads asleep with no CPU; 0.01 CPU-s used by all threads over 0.50s; "
        "no heartbeat for 4.2s after 0 batch(es)",
    ),
    (
        ev.FutexWaiters(0x7F00, (10, 11, 12, 13), ("4 rayon pool threads",), "Mutex::lock_contended"),
        "futex 0x7f00: 4 rayon pool threads (tids 10-13) wait in Mutex::lock_contended",
    ),
    (ev.FutexWaiters(0xB0, (5,), (), "futex wait"), "futex 0xb0: 1 thread (tids 5) wait in futex wait"),
    (ev.FutexWaiters(0xB0, (5, 9), (), "futex wait"), "futex 0xb0: 2 threads (tids 5, 9) wait in futex wait"),
    (ev.OffFutex(8, "python3", "S", "poll()"), "thread 8 (python3) S, not on a futex: poll()"),
    (
        ev.IdleByDesign(tuple(f"{t}: rayon sleep" for t in range(1, 9))),
        "idle by design (not evidence): " + "; ".join(f"{t}: rayon sleep" for t in range(1, 7)),
    ),
    (ev.GilHeld(7, "take_gil"), "GIL held by thread 7 (take_gil)"),
    (ev.GilFree(), "no thread holds the GIL"),
    (ev.GilUnknown(), "GIL owner unknown (py-spy view missing)"),
    (ev.Busiest(((7, 1.5), (8, 0.25))), "busiest threads: 7 1.50s, 8 0.25s"),
    (ev.ForkNoExec(20, 10), "process 20 is a fork of process 10 that never exec'd, and has one thread"),
    (
        ev.ForkNoExec(20, 10, same_program=True),
        "process 20 is a fork of process 10 that never exec'd (same program and arguments), and has one thread",
    ),
    (
        ev.LibraryWait(20, "futex 0xb0 (timed)", "libgrpc.so", "fetch (app.py:3)"),
        "thread 20 waits in futex 0xb0 (timed) inside libgrpc.so, called from fetch (app.py:3)",
    ),
    (ev.LibraryWait(20, "poll()", "libgrpc.so", None), "thread 20 waits in poll() inside libgrpc.so"),
    (
        ev.ParentLibraryThreads(5, "libgrpc.so", ("a", "b", "c", "d", "e")),
        "in the parent, 5 thread(s) started by libgrpc.so (a, b, c, d) run that library's work; fork() copied "
        "none of them, so nothing in the child will ever do it",
    ),
    (
        ev.RearmedWait(40),
        "40 wake-up(s) over the window with no CPU to speak of: a timed wait that the library re-arms, not one "
        "about to end",
    ),
    (ev.UntimedWait(), "an untimed wait: only those threads could end it"),
    (
        ev.InPrepareHandler(7, "__run_prefork_handlers", "libgrpc.so", "futex 0xb0 (timed)"),
        "thread 7 is inside fork(), in a prepare handler (__run_prefork_handlers -> libgrpc.so), and waits in "
        "futex 0xb0 (timed)",
    ),
    (
        ev.InPrepareHandler(7, "__run_prefork_handlers", None, "S"),
        "thread 7 is inside fork(), in a prepare handler (__run_prefork_handlers), and waits in S",
    ),
    (
        ev.OwnWaitsOnly(4, ((8, "epoll_wait()"), (9, "futex 0xc0"))),
        "the 4 other thread(s) wait only on this process's own descriptors, locks or timers (8 in epoll_wait(), "
        "9 in futex 0xc0): nothing outside the process will make them do what the handler waits for",
    ),
    (
        ev.HandlerRearms(),
        "no byte moved and no CPU was used over the window: the handler re-arms its wait, forever",
    ),
    (
        ev.LibrarySpin(20, "libonnx.so", "WaitAll", 1.5, 2.0, 3),
        "thread 20 spins in libonnx.so (WaitAll): 1.50 CPU-s over 2.00s, no byte moved, the same stack at 3 "
        "looks: a pool's spin-wait for its workers",
    ),
    (
        ev.ParentSpinWorkers(4, "libonnx.so"),
        "in the parent, 4 thread(s) started by libonnx.so are those workers; fork() copied none of them",
    ),
    (
        ev.PrepareHandlerSpin(7, "__run_prefork_handlers", "tbb::spin", 0.9, 3),
        "thread 7 is inside fork(), in a prepare handler (__run_prefork_handlers), and spins in tbb::spin: "
        "0.90 CPU-s, no byte moved, the same stack at 3 looks",
    ),
    (
        ev.OthersWaitInside(2),
        "the 2 other thread(s) wait on locks, timers or this process's own descriptors: nothing will make them "
        "do what the handler waits for",
    ),
    (
        ev.ConditionOnlyParent(20, "wait (threading.py:320)"),
        "thread 20 waits on a condition at wait (threading.py:320) (a future's result, an event): only another "
        "thread could set it, and fork() copied none (the thread pool, or whatever was to answer, runs only in "
        "the parent)",
    ),
    (
        ev.LockHeldAtFork(20, "emit (__init__.py:1)"),
        "thread 20 waits to acquire a lock at emit (__init__.py:1), and no thread in this process can release "
        "it: it was held at fork() time by a thread of the parent, which fork() does not copy",
    ),
    (
        ev.InsideFork(20, "__libc_fork", 0xB0, "x (a.py:1)"),
        "thread 20 has not returned from fork(): its stack runs the child's at-fork handlers (__libc_fork), "
        "and it waits on a lock (futex 0xb0) at x (a.py:1)",
    ),
    (
        ev.InsideFork(20, None, 0xB0, "x (a.py:1)"),
        "thread 20 has not returned from fork(): its interpreter still lists the parent's threads, and it "
        "waits on a lock (futex 0xb0) at x (a.py:1)",
    ),
    (
        ev.LockHolderNotCopied(1),
        "the process has 1 thread(s): the lock's holder was a thread of the parent, which fork() does not copy",
    ),
    (
        ev.ForeignThreadStates(tuple(range(1, 9))),
        "py-spy lists interpreter threads 1, 2, 3, 4, 5, 6 that do not exist here: the interpreter still holds "
        "its parent's thread states (it has not finished the fork)",
    ),
    (
        ev.RuntimeWorkersMissing(20, "LockLatch::wait", "rayon", 1),
        "thread 20 waits in LockLatch::wait for pool jobs, and no rayon pool thread exists (the process has 1 "
        "OS thread(s), the native stacks of all of them)",
    ),
    (
        ev.RuntimeNotForked("tokio"),
        "the runtime's threads were started before fork(); the child inherited its state but not its threads",
    ),
    (
        ev.GilAcrossLatch(1, "main thread", True, "LockLatch::wait"),
        "thread 1 (main thread) holds the GIL (py-spy: owns_gil) and waits in LockLatch::wait for its rayon jobs",
    ),
    (
        ev.GilAcrossLatch(1, "main thread", False, "LockLatch::wait"),
        "thread 1 (main thread) holds the GIL (inferred: py-spy view missing) and waits in LockLatch::wait for "
        "its rayon jobs",
    ),
    (
        ev.PoolWaitsGil(tuple(range(2, 10)), "take_gil"),
        "8 rayon pool thread(s) (2, 3, 4, 5, 6, 7, ... (8 in all)) inside those jobs wait for the GIL in take_gil",
    ),
    (
        ev.MutexGroups(((0xA0, (1, 2)), (0xB0, (3,)))),
        "threads wait on 2 different mutexes: 0xa0: 2 thread(s) (1, 2); 0xb0: 1 thread(s) (3)",
    ),
    (
        ev.HeldByWaiters(),
        "each mutex is held by a thread that is itself waiting for another one of them (no thread outside these "
        "groups can release them)",
    ),
    (
        ev.OneMutexWaiters((2, 3), 0xA0, "Mutex::lock_contended"),
        "2 thread(s) (2, 3) wait for one mutex at 0xa0 in Mutex::lock_contended",
    ),
    (
        ev.HolderWaitsJobs(1, "main thread", "LockLatch::wait"),
        "thread 1 (main thread) does not wait for it but waits in LockLatch::wait for the very jobs that do: it "
        "holds the lock across the parallel region",
    ),
    (
        ev.PoolAllBlocked(4, "crossbeam::recv", 3),
        "all 4 rayon pool threads are inside jobs, blocked in crossbeam::recv (3 in channel operations)",
    ),
    (
        ev.PoolAllBlocked(4, "a blocking wait", 0),
        "all 4 rayon pool threads are inside jobs, blocked in a blocking wait",
    ),
    (
        ev.NoIdlePoolThread(),
        "no pool thread is idle in rayon's sleep, so the job that would unblock them (e.g. the channel's "
        "consumer) can never run",
    ),
    (ev.WaitsForPool(1, "LockLatch::wait"), "thread 1 waits in LockLatch::wait for the pool"),
    (
        ev.GilHolderOnNativeLock(1, "main thread", 0xA0, "pthread_mutex_lock", "load (app.py:13)"),
        "thread 1 (main thread) holds the GIL (py-spy: owns_gil) and waits on a native lock (futex 0xa0) in "
        "pthread_mutex_lock, called from load (app.py:13)",
    ),
    (
        ev.GilWaiters((2,), "take_gil", (2, "holder (app.py:9)")),
        "1 thread(s) (2) wait for the GIL in take_gil, e.g. thread 2 at holder (app.py:9)",
    ),
    (ev.GilWaiters((2, 3), "take_gil", None), "2 thread(s) (2, 3) wait for the GIL in take_gil"),
    (
        ev.HolderAmongGilWaiters(),
        "the lock's holder can only be one of the GIL's waiters (every other thread is blocked too): it waits "
        "for the GIL, the GIL's holder waits for its lock",
    ),
    (ev.BurntNoProgress(1.5, 2.0), "1.50 CPU-s burnt over 2.00s with no progress"),
    (ev.ThreadUsed(7, 1.25, "spin_loop"), "thread 7 used 1.25s in spin_loop"),
    (ev.ThreadUsed(7, 1.25, None), "thread 7 used 1.25s"),
    (
        ev.WorkerDied(31, "SIGKILL", "--kill-worker", sending=True),
        "worker 31 died (SIGKILL, --kill-worker) after it had finished its share, i.e. while pickling or "
        "sending its result",
    ),
    (ev.WorkerDied(31, "exit code 1", None, sending=False), "worker 31 died (exit code 1) "),
    (
        ev.UnreapedZombie(3.0),
        "it is a zombie: the executor never reaped it, never raised BrokenProcessPool, and for 3s and more its "
        "task's future stayed pending",
    ),
    (
        ev.ManagerWaitsFrame(),
        "the executor's manager thread (in the parent) waits for the rest of a result frame that will never "
        "come: the pipe's write ends stay open in the parent and the other workers, so no EOF",
    ),
    (ev.ManagerStack(("run", "_recv")), "the manager thread is in run > _recv"),
    (
        ev.ResultLockOfDead(31),
        "this worker finished its share and waits to send its result on the result queue's lock, held by the "
        "dead worker 31: a lock in shared memory whose holder is gone",
    ),
    (
        ev.StillAtWork(),
        "this worker was still at work when the wedge was found: whatever it returned, its future stays "
        "pending behind the same wedge (the executor collects no result any more)",
    ),
    (ev.ProcSaid("waits on a futex"), "/proc: waits on a futex"),
    (ev.Crashed("worker died: SIGSEGV", -11, 11), "worker died: SIGSEGV; exit code -11, signal SIGSEGV"),
    (ev.BatchesBefore(4), "4 batch(es) completed before it died"),
    (ev.StderrCause("OOM", "MemoryError"), "OOM, from its stderr: MemoryError"),
    (ev.Raised(2, 4, 2), "2 of 4 workers raised; 2 finished cleanly with the same code"),
    (ev.RaisedAfter(3, "ValueError: x"), "raised after 3 batch(es): ValueError: x"),
    (
        ev.HandlerAcquires(7, "main", "_PyErr_CheckSignals", "handler (app.py:9)"),
        "thread 7 (main) runs a signal handler (_PyErr_CheckSignals on its stack) and waits to acquire a lock"
        " at handler (app.py:9)",
    ),
    (
        ev.HandlerInterrupted(("a", "b", "c")),
        "the handler interrupted this same thread's frames, which hold the lock and cannot go on until the "
        "handler returns (below it: a, b, c)",
    ),
    (
        ev.HandlerInterrupted(()),
        "the handler interrupted this same thread's frames, which hold the lock and cannot go on until the "
        "handler returns",
    ),
    (
        ev.SelfWait(7, "main", None, "log", "app.py", 12, 40),
        "thread 7 (main) waits to acquire a lock under log (app.py:12), and log is further down its own stack"
        " (line 40): the outer call holds what the inner one waits for",
    ),
    (
        ev.SelfWait(7, "main", "emit (app.py:14)", "log", "app.py", 12, 40),
        "thread 7 (main) waits at emit (app.py:14) (a Condition or queue wait) under log (app.py:12), and log"
        " is further down its own stack (line 40): the outer call holds what the inner one waits for",
    ),
    (
        ev.SelfWait(
            7,
            "main",
            "shutdown (socketserver.py:250)",
            "shutdown",
            "socketserver.py",
            250,
            240,
            "serve_forever",
        ),
        "thread 7 (main) waits at shutdown (socketserver.py:250) (a Condition or queue wait) under shutdown "
        "(socketserver.py:250), and serve_forever, which ends that wait when it returns, is further down its own "
        "stack (line 240): it waits for its own caller",
    ),
    (
        ev.ReenteredThrough(("handle", "emit")),
        "re-entered through handle <- emit: no other thread can release it, and this one waits for it",
    ),
    (
        ev.ReenteredThrough(()),
        "re-entered through a direct call: no other thread can release it, and this one waits for it",
    ),
    (
        ev.LoopBlocks(7, "main", "run_forever", "cb (app.py:3)"),
        "thread 7 (main) runs an asyncio event loop (run_forever on its stack) and blocks, untimed, at cb "
        "(app.py:3)",
    ),
    (
        ev.LoopStalled(),
        "the loop runs on this thread only: while it blocks, no task or callback of the loop runs, so what it"
        " waits for (a future the loop would complete) never comes",
    ),
    (
        ev.ExitJoins(7),
        "the main thread 7 is in threading._shutdown: the program ended and the interpreter joins its "
        "non-daemon threads",
    ),
    (
        ev.NeverEnd(((8, "worker", "loop (app.py:5)"), (9, None, "?"))),
        "they never end: 8 (worker) at loop (app.py:5); 9 (None) at ?",
    ),
    (
        ev.NeverEnd(()),
        "they never end: none is left, yet the join waits",
    ),
    (
        ev.QueueJoinWaits(7, "main", "main (app.py:20)"),
        "thread 7 (main) waits in Queue.join() at main (app.py:20): it returns when every item got a "
        "task_done()",
    ),
    (
        ev.ConsumersWaitItems((8, 9), "get (app.py:8)"),
        "2 consumer(s) (8, 9) wait in Queue.get() for more items at get (app.py:8): the queue is drained, yet"
        " tasks are unfinished",
    ),
    (
        ev.NoThreadLeft(),
        "no other thread exists: the consumers that took the unfinished items (or were to) have exited, and "
        "no thread is left to call task_done()",
    ),
    (
        ev.NoConsumer(),
        "no thread takes items from the queue, and no thread can call task_done()",
    ),
    (
        ev.PyLockWaiters(2, 2),
        "2 Python threads wait to acquire 2 different threading locks, and no thread outside them can release"
        " one:",
    ),
    (
        ev.PyLockAcquirer(8, "a", "take (app.py:4)", 160),
        "thread 8 (a) at take (app.py:4), lock 0xa0",
    ),
    (
        ev.JoinerAmong(7, "main (app.py:30)"),
        "thread 7 waits in join() at main (app.py:30)",
    ),
    (
        ev.ConditionWait(8, "worker", "wait (app.py:6)", True),
        "thread 8 (worker) waits in Condition/Event wait() with no timeout at wait (app.py:6), and no thread "
        "is left to notify it",
    ),
    (
        ev.ConditionWait(8, "worker", "wait (app.py:6)", False),
        "thread 8 (worker) waits in Condition/Event wait() with no timeout at wait (app.py:6)",
    ),
    (
        ev.JoinerWaitsWakeup(7, "main", "main (app.py:30)"),
        "thread 7 (main) waits in Thread.join() at main (app.py:30): it waits for the wakeup too",
    ),
    (
        ev.ThreadJoins(7, "main (app.py:30)"),
        "thread 7 waits in Thread.join() at main (app.py:30)",
    ),
    (
        ev.OthersBlocked(2, ((8, "a (app.py:1)"), (9, "b (app.py:2)"))),
        "the 2 other Python thread(s) are blocked themselves: 8 at a (app.py:1); 9 at b (app.py:2)",
    ),
    (
        ev.OthersBlocked(0, ()),
        "the 0 other Python thread(s) are blocked themselves: none exists",
    ),
    (
        ev.JoinCycle(8, "stop (app.py:11)", 7),
        "thread 8 waits to acquire a lock at stop (app.py:11) that only thread 7 can hold (no other thread is"
        " left): a cycle, 7 holds the lock while it waits for 8 to end, and 8 waits for the lock",
    ),
    (
        ev.NobodyNotifies(2, 1),
        "2 thread(s) wait on conditions and the 1 other Python thread(s) are blocked themselves, so nothing "
        "in the process can notify",
    ),
    (
        ev.NobodyNotifies(1, 0),
        "1 thread(s) wait on conditions and no other Python thread exists to notify",
    ),
    (
        ev.ImportLockWait(8, "worker", "run (app.py:2)"),
        "thread 8 (worker) waits for a module's import lock (importlib _ModuleLock.acquire) at run (app.py:2)",
    ),
    (
        ev.ImportLockHolder(7, "main", "/srv/mod.py", "<module> (mod.py:3)"),
        "thread 7 (main) holds it: it is running the top-level code of /srv/mod.py for an import, and waits "
        "at <module> (mod.py:3)",
    ),
    (
        ev.PoolTasksWaitFutures((8, 9), 8, "task (app.py:7)"),
        "all 2 thread-pool workers (8, 9) are inside tasks that wait for a future, e.g. thread 8 at task "
        "(app.py:7)",
    ),
    (
        ev.NoFreeWorker(),
        "no worker is free to run the tasks they wait for, which are queued behind them",
    ),
    (
        ev.WaitsForOneOfThem(7, "main", "main (app.py:30)"),
        "thread 7 (main) waits for one of them at main (app.py:30)",
    ),
    (
        ev.AcquiresLock(8, "worker", "put (app.py:5)", 160),
        "thread 8 (worker) waits to acquire a lock at put (app.py:5) (0xa0)",
    ),
    (
        ev.AcquiresLock(8, "worker", "put (app.py:5)", None),
        "thread 8 (worker) waits to acquire a lock at put (app.py:5)",
    ),
    (
        ev.BlockedBeside(7, "main", True, "main (app.py:30)"),
        "thread 7 (main) waits in Thread.join() at main (app.py:30)",
    ),
    (
        ev.BlockedBeside(9, "worker", False, "get (app.py:6)"),
        "thread 9 (worker) waits in a Condition/Event/queue wait at get (app.py:6)",
    ),
    (
        ev.HeldAcrossWait(2, 8),
        "the lock is held by one of those 2 thread(s), across its wait; thread 8 is the only thread not "
        "waiting for another, so only it could wake them, and it waits for the lock: a cycle",
    ),
    (
        ev.PoolTasksWaitLock((8, 9), 160, "task (app.py:7)"),
        "2 thread-pool worker(s) (8, 9) wait, inside their tasks, to acquire one lock (0xa0) at task "
        "(app.py:7)",
    ),
    (
        ev.OnlyHolderWaitsPool(7, "main", "main (app.py:30)"),
        "thread 7 (main) waits for the pool's results at main (app.py:30), and is the only other thread: only"
        " it can hold that lock, so it holds it across its wait for the tasks that need it: a cycle",
    ),
    (
        ev.PartyWait(10, 11, "write() on socket:[5]", (20, 30)),
        "process 10 thread 11 waits in write() on socket:[5]: only process(es) 20, 30 can end it",
    ),
    (
        ev.WaitsForever(20, "sleep", "read() on pipe:[7]"),
        "process 20 (sleep), on which that wait depends, waits forever itself: read() on pipe:[7]; nothing in"
        " the look can end its wait, so nothing will end this one",
    ),
    (
        ev.OnlySelfCanEnd(10, 11, "read() on pipe:[7]"),
        "process 10 thread 11 waits in read() on pipe:[7]: only process 10 itself can end it",
    ),
    (
        ev.ChildrenExited((21, 22)),
        "its child(ren) 21, 22 exited: their exit cannot end a wait whose other end it holds itself",
    ),
    (
        ev.HoldsOtherEnd(10, "python3"),
        "process 10 (python3) holds the other end itself, has no other thread left to write, close or unlock "
        "it, and catches no signal whose handler could: it waits for itself",
    ),
    (
        ev.WaitsForFdWaiter(10, 10),
        "thread 10 waits for a thread that waits on a descriptor whose other end only process 10 holds, and "
        "no thread of it is left to write, close or unlock that end but the ones waiting: the threads wait "
        "for one another",
    ),
    (
        ev.FdWaiterBehindLock(10, 10),
        "thread 10 waits on a descriptor whose other end only process 10 holds, and the other thread(s) that "
        "could write, close or unlock it wait on a lock of this process that none but the waiters can "
        "release: the threads wait for one another",
    ),
    (
        ev.CycleParked((10, 20)),
        "every thread of process(es) 10, 20 is parked with no CPU over the window in a wait only these "
        "processes can end, with no timer and no end outside them: a cycle, none can move",
    ),
    (
        ev.ParentAwaitsExit(10, "wait4() for child 20", 20),
        "process 10 waits in wait4() for child 20 to exit",
    ),
    (
        ev.ParentAwaitsExit(10, "wait4()", 20),
        "process 10 waits in wait4() for child 20 to exit",
    ),
    (
        ev.ChildPipeFull(20, 21, "write() on pipe:[7]"),
        "child 20's thread 21 is blocked in write() on pipe:[7]: the pipe is full",
    ),
    (
        ev.NoReaderReads((10, 20), "pipe:[7]"),
        "only processes 10, 20 hold pipe:[7] open for reading, and none of them reads it: the parent waits "
        "for the child, the child for the parent",
    ),
    (
        ev.MainAwaitsPool(),
        "the main thread waits for its ProcessPoolExecutor's results",
    ),
    (
        ev.ManagerInFrame(12, "read() on pipe:[7]"),
        "the executor's manager thread 12 is blocked in read() on pipe:[7], inside a result frame "
        "(Connection._recv), not in its poll between frames",
    ),
    (
        ev.DeadUnreaped("31 (SIGKILL)"),
        "dead, unreaped worker(s): 31 (SIGKILL); the manager thread reaps a dead worker from that poll, so it"
        " never will: a worker died while sending its result, holding the result queue's lock",
    ),
    (
        ev.WriteEndsOpen(),
        "the pipe's write ends stay open in this process and the other workers, so the read never sees EOF",
    ),
    (
        ev.WorkerAwaitsSend(10),
        "this worker of process 10's ProcessPoolExecutor finished its task and waits to send the result "
        "(_sendback_result)",
    ),
    (
        ev.ResultLockDead("31 (SIGKILL)"),
        "the result queue's lock is held by dead worker(s) 31 (SIGKILL): a lock in shared memory whose holder"
        " is gone",
    ),
    (
        ev.PipeStep(10, "read() on pipe:[7], written only by", 20),
        "process 10 waits in read() on pipe:[7], written only by process 20",
    ),
    (
        ev.PipeCycleAll(2),
        "each of the 2 processes waits for the next: none can write, none returns",
    ),
    (
        ev.SemWait(10, 11, "/dev/shm/sem.mp-1", 0, (10, 20)),
        "process 10 (thread 11) waits, untimed, on a multiprocessing semaphore in shared memory "
        "(/dev/shm/sem.mp-1), value 0, mapped by 10, 20",
    ),
    (
        ev.SemWait(10, 11, "/dev/shm/sem.mp-1", None, (10, 20)),
        "process 10 (thread 11) waits, untimed, on a multiprocessing semaphore in shared memory "
        "(/dev/shm/sem.mp-1), value ?, mapped by 10, 20",
    ),
    (
        ev.JoinsBlockedChild(10, 10, 20),
        "process 10 (thread 10) waits for process 20 to exit, and none of its other threads can post a "
        "semaphore",
    ),
    (
        ev.ReadsOnlyFrom(20, ("read() on pipe:[7]", "poll()"), (10,)),
        "process 20 waits in read() on pipe:[7]; poll(): only process(es) 10 can end it",
    ),
    (
        ev.SemDeadMapper(((10, (31, 32)),)),
        "every live process that maps it waits, and process 10's dead child(ren) 31, 32 died unreaped: a process "
        "that died inside the lock (killed while it held it) leaves it taken for good",
    ),
    (
        ev.SemNoOwner((10, 20)),
        "a semaphore names no owner: only the processes that map one can post it, and each of 10, 20 waits "
        "for another of them, with no other thread free",
    ),
    (
        ev.MainAwaitsResult("multiprocessing.Pool", "get (pool.py:774)"),
        "the main thread waits for a result of its multiprocessing.Pool at get (pool.py:774)",
    ),
    (
        ev.MainAwaitsResult("ProcessPoolExecutor", None),
        "the main thread waits for a result of its ProcessPoolExecutor",
    ),
    (
        ev.ResultThreadDied("multiprocessing.Pool", "result handler thread (_handle_results)"),
        "the multiprocessing.Pool's result handler thread (_handle_results) does not exist: it delivers every"
        " result to the launcher, and it has died (an exception in it: a result that could not be unpickled, "
        "a bug in its loop; its traceback went to stderr)",
    ),
    (
        ev.NoOtherSetsIt((3, 1.5)),
        "no other thread sets the result the main thread waits for, whatever they do (3 other thread(s) use "
        "1.50 CPU-s)",
    ),
    (
        ev.NoOtherSetsIt(None),
        "no other thread sets the result the main thread waits for, whatever they do",
    ),
    (
        ev.ReaderWaitsOwnPool("ProcessPoolExecutor", "manager thread", 12, "result (_base.py:456)"),
        "the ProcessPoolExecutor's manager thread waits for a result of its own pool: thread 12, at result "
        "(_base.py:456) (inside a callback it runs)",
    ),
    (
        ev.OnlyDeliverer(),
        "it is the only thread that delivers the pool's results, so the result it waits for, and the main "
        "thread's, can never arrive",
    ),
    (
        ev.WorkersWaitTask((20, 21)),
        "all 2 worker(s) (20, 21) wait for a task, at every look over the window",
    ),
    (
        ev.WorkersWaitTask(()),
        "no worker process is left to run the task",
    ),
    (
        ev.NothingInFlight(),
        "no byte waits in any pipe between the launcher and its workers, and the launcher has nothing left to"
        " hand out: nobody holds the task, so its result will never come",
    ),
    (
        ev.WorkersReplaced((22,), 0.7),
        "worker(s) 22 started 0.70 s after the first: the pool replaced a worker that exited (killed, or it "
        "called exit) while it held the task",
    ),
    (
        ev.DeadChildren((21,)),
        "dead, unreaped child(ren): 21",
    ),
    (
        ev.WorkersChurn(2.0, (20, 21, 22, 23, 24), 4, (1,)),
        "over 2.0s its workers kept changing: 5 started and 4 exited (new pids 20, 21, 22, 23...); the dead "
        "caught exited with code 1",
    ),
    (
        ev.WorkersChurn(2.0, (20, 21), 2, ()),
        "over 2.0s its workers kept changing: 2 started and 2 exited (new pids 20, 21)",
    ),
    (
        ev.NothingDelivered(),
        "the pool's result handler read nothing: no worker delivered anything before it died; each dying "
        "worker printed why on stderr (an initializer that raises, a script without an `if __name__ == "
        "'__main__':` guard re-run by spawn)",
    ),
    (
        ev.BehindWorkers((20,), "deadlock", "threads wait on a mutex"),
        "the main thread waits for its pool's results; worker(s) 20 hold its tasks and are deadlocked "
        "themselves: threads wait on a mutex",
    ),
    (
        ev.NativePoolAlone(7, "pool::run", "future::get()"),
        "thread 7, the only worker of its pool (pool::run), is inside a task blocked in future::get(): the "
        "work that future waits for is queued to this same pool, behind the task that waits",
    ),
    (
        ev.NativePoolAll((7, 8), "pool::run", "future::get()"),
        "all 2 workers of one pool (pool::run; threads 7, 8) are inside tasks blocked on futures "
        "(future::get()): none is free to run the work those futures wait for, queued behind them",
    ),
    (
        ev.NoIdleWorker(),
        "no worker of the pool waits idle in its loop, so nothing queued to it can run",
    ),
    (
        ev.QueueReadsEmpty(10, "pipe:[7]"),
        "process 10 reads pipe:[7] for its queue's next item (Connection._recv), and no byte waits there",
    ),
    (
        ev.FeederKeptObject(20, 21, "<lambda>"),
        "process 20, which holds the pipe's write end, has a queue feeder thread 21 idle in Queue._feed whose"
        " last item `obj` is still an object (<lambda>), not the pickled bytes it sends: pickling it failed, "
        "the feeder printed the error and dropped it",
    ),
    (
        ev.PutReturned(),
        "put() had returned long before, so the producer thinks it answered; nothing else will write",
    ),
    (
        ev.CycleWithConsumer("waits in read() on pipe:[7]"),
        "in a cycle with a queue's consumer: waits in read() on pipe:[7]",
    ),
    (
        ev.QueueLockWait(11, "/dev/shm/sem.mp-q", 0, (10, 20)),
        "thread 11 waits, untimed, for a multiprocessing queue's read lock: a semaphore in shared memory "
        "(/dev/shm/sem.mp-q), value 0, mapped by process(es) 10, 20",
    ),
    (
        ev.QueueLockWait(11, "/dev/shm/sem.mp-q", None, (10, 20)),
        "thread 11 waits, untimed, for a multiprocessing queue's read lock: a semaphore in shared memory "
        "(/dev/shm/sem.mp-q), value ?, mapped by process(es) 10, 20",
    ),
    (
        ev.BytesUnread(64, ("pipe:[7]",), (10, 20)),
        "64 byte(s) wait in pipe:[7], the pipe that lock guards, and no live process reads it: process(es) "
        "10, 20 wait for the lock, the others are nowhere inside that queue's get",
    ),
    (
        ev.HolderNotLiving(),
        "a semaphore has no owner: the process that took it last is not among the living",
    ),
    (
        ev.DeadLeftUnreaped("31 (SIGKILL)"),
        "dead child(ren) left unreaped: 31 (SIGKILL)",
    ),
    (
        ev.StartedAfterSiblings((22,)),
        "worker(s) 22 started after their siblings: replacements",
    ),
    (
        ev.SysvSemWait(11, "semop() on semaphore 3"),
        "thread 11 waits, untimed, in semop() on semaphore 3",
    ),
    (
        ev.SysvTakerExited(31),
        "the semaphore is at 0 and the last process that operated on it (semctl GETPID), pid 31, has exited: "
        "it took the semaphore and was never to give it back (a System V semaphore is released for a dead "
        "process only when taken with SEM_UNDO)",
    ),
    (
        ev.OrphanSemWait(11, "/dev/shm/sem.mp-e", 0),
        "thread 11 waits, untimed, on a multiprocessing semaphore in shared memory (/dev/shm/sem.mp-e), value"
        " 0",
    ),
    (
        ev.NoOtherMapper(),
        "no other process on this host maps it, and every other thread of this one waits on a lock: the "
        "process that was to release or notify it has exited",
    ),
    (
        ev.BehindHungPeer(
            "thread 7 (main thread)", "read() on fd 3 (pipe:[7])", ("held by pid 20, deadlocked", "x")
        ),
        "thread 7 (main thread) waits in read() on fd 3 (pipe:[7]): held by pid 20, deadlocked; x",
    ),
    (
        ev.PeerWaits("thread 7 (main thread)", "read() on fd 3 (pipe:[7])"),
        "thread 7 (main thread) waits in read() on fd 3 (pipe:[7])",
    ),
    (
        ev.PeerEnd("its other end held by nobody"),
        "- its other end held by nobody",
    ),
    (
        ev.OwnEndOnly(2),
        "only this process holds the other end, so only one of its own threads could end the wait, and each "
        "of its 2 other thread(s) waits on a lock, a timer or descriptors only this process holds, with no "
        "byte moved over the window",
    ),
    (
        ev.OwnEndOnly(0),
        "only this process holds the other end, so only one of its own threads could end the wait, and it has"
        " no other thread",
    ),
    (
        ev.NoHolder(),
        "no process holds the other end: nothing can ever answer",
    ),
    (
        ev.AnswererGone("21 (signal 9)"),
        "dead, unreaped child(ren) 21 (signal 9): whoever was to answer has gone",
    ),
    (
        ev.InTeardown("grpc_shutdown"),
        "the wait is inside the library's teardown (grpc_shutdown)",
    ),
    (
        ev.InChannel("Connection._recv"),
        "the wait is in Connection._recv: a channel made for another process, whose end only this one holds",
    ),
    (
        ev.LoopNoTimer(7, "epoll_wait() on fd 4", "0"),
        "thread 7 runs an asyncio event loop (BaseEventLoop._run_once) and waits in epoll_wait() on fd 4 with"
        " no timeout: no timer is scheduled (sched_count 0)",
    ),
    (
        ev.LoopNoTimer(7, "epoll_wait() on fd 4", None),
        "thread 7 runs an asyncio event loop (BaseEventLoop._run_once) and waits in epoll_wait() on fd 4 with"
        " no timeout: no timer is scheduled",
    ),
    (
        ev.LoopWatchesOwn("socket:[9]"),
        "it watches only socket:[9], whose other end no other process holds (the loop's own wake-up pipe): no"
        " I/O can arrive",
    ),
    (
        ev.LoopWatchesNothing(),
        "its selector watches no descriptor at all, not even the loop's own wake-up pipe (something "
        "unregistered it: a forked child that closed its copy of the loop shares the parent's epoll set): "
        "nothing, not even call_soon_threadsafe, can wake it",
    ),
    (
        ev.LoopOthersForever(2),
        "the process's 2 other thread(s) wait forever themselves: none can call call_soon_threadsafe",
    ),
    (
        ev.LoopOthersForever(0),
        "it is the process's only thread: nothing else can call call_soon_threadsafe",
    ),
    (
        ev.NoWakingSignal(),
        "it catches no signal that could wake it (SIGINT aside)",
    ),
    (
        ev.WakeupLost(),
        "so every task of the loop waits for something nothing will produce: a wake-up was lost (a notify or "
        "a result taken by a waiter that was being cancelled, a cancellation swallowed)",
    ),
    (
        ev.RetriesLock(7, "python3", 40, 2.0),
        "thread 7 (python3) retries on a timer inside a lock's acquire (40 wake-ups over 2.0s, nothing moved)",
    ),
    (
        ev.HoldsFileLock(10, "/tmp/x.lock", 3, 4),
        "process 10 holds a file lock on /tmp/x.lock through fd 3, and has the same file open again on fd 4: "
        "a lock taken through that second open waits for the first",
    ),
    (
        ev.HoldsFileLock(10, "/tmp/x.lock", 3, None),
        "process 10 holds a file lock on /tmp/x.lock through fd 3, and no other process on this host holds or"
        " waits for a file lock (/proc/locks): the lock it retries can only be one it holds itself (a second "
        "open of the file, taken and closed at each try)",
    ),
    (
        ev.OnlyItReleases(True),
        "that lock is released only by this process, and no other thread of it is left to release it (every "
        "other thread waits on a lock of its own)",
    ),
    (
        ev.OnlyItReleases(False),
        "that lock is released only by this process, and no other thread of it is left to release it (it has "
        "no other thread)",
    ),
    (
        ev.MainFinalizing(10, "finalize_modules", False),
        "the main thread 10 is in finalize_modules (Py_FinalizeEx): the program has ended and the interpreter"
        " is freeing what is left; no Python frame remains on its stack",
    ),
    (
        ev.MainFinalizing(10, "__run_exit_handlers", True),
        "the main thread 10 is in libc's exit handlers (__run_exit_handlers), past Py_FinalizeEx: the "
        "interpreter is gone and C++ static destructors and atexit handlers run; no Python frame remains on "
        "its stack",
    ),
    (
        ev.DestructorWaits("Pool::~Pool", True, (11, "worker"), "std::thread::join", 176),
        "a destructor (Pool::~Pool) joins thread 11 (worker), the only other one, in std::thread::join (futex"
        " 0xb0)",
    ),
    (
        ev.DestructorWaits(None, True, None, "std::thread::join", 176),
        "it joins a thread in std::thread::join (futex 0xb0)",
    ),
    (
        ev.DestructorWaits(None, False, None, "futex wait", 176),
        "it waits in futex wait (futex 0xb0)",
    ),
    (
        ev.EndersWait(((11, "worker", "futex wait"),)),
        "the thread(s) that could end it wait themselves: 11 (worker) in futex wait",
    ),
    (
        ev.NoEnderLeft(),
        "no other thread is left to end that wait",
    ),
    (
        ev.MainTearingDown(10, "finalize_modules"),
        "the main thread 10 is in finalize_modules (Py_FinalizeEx): the program has ended and the interpreter"
        " is tearing its modules down, past the point where any other thread may run Python again",
    ),
    (
        ev.FinalizerWaitsLock("lock_PyThread_acquire_lock", 176),
        "Python code run from there (a __del__ or a finalizer) waits, untimed, to acquire a Python lock in "
        "lock_PyThread_acquire_lock (futex 0xb0)",
    ),
    (
        ev.NoPythonThreadRuns(2),
        "only another Python thread could release it, and none runs again: daemon threads stop at their next "
        "bytecode once finalization starts, the others were joined before it (2 native thread(s) left hold no"
        " Python lock)",
    ),
    (
        ev.NoPythonThreadRuns(0),
        "only another Python thread could release it, and none runs again: daemon threads stop at their next "
        "bytecode once finalization starts, the others were joined before it",
    ),
    (
        ev.RelocksOwnMutex("thread 7 (main thread)", 176),
        "thread 7 (main thread) waits to lock the pthread mutex at 0xb0, and the mutex's owner field names "
        "this same thread: it locked it and, without unlocking, locks it again",
    ),
    (
        ev.NotRecursive(),
        "a mutex that is not recursive never grants a second lock to its owner: only this thread could unlock"
        " it, and it waits",
    ),
    (
        ev.ForeignOwnerMutex("thread 7 (main thread)", 176, 31, 30),
        "thread 7 (main thread) waits to lock the process-private pthread mutex at 0xb0, whose owner field "
        "names thread 31 of another process, 30",
    ),
    (
        ev.PrivateMutexCopied(),
        "a private mutex is never shared: this one is a copy, made by fork() while that thread held it, and "
        "the thread did not come along into this process, so nothing here can unlock it",
    ),
    (
        ev.MutexHeldBy("thread 7 (main thread)", 176, 8),
        "thread 7 (main thread) waits for the pthread mutex at 0xb0, held by thread 8",
    ),
    (
        ev.MutexRing(),
        "each holder waits for the next one's mutex, round to the first: none can unlock",
    ),
    (
        ev.MutexOwnerGone("thread 7 (main thread)", 176, 9),
        "thread 7 (main thread) waits for the pthread mutex at 0xb0, whose owner field names thread 9, and no"
        " thread 9 exists any more",
    ),
    (
        ev.OnlyOwnerUnlocks(),
        "a mutex is unlocked only by the thread that locked it: one that exited holding it left it locked for"
        " good",
    ),
    (
        ev.GilHolderSpins(7, "main thread", "libfoo.so", "spin_wait", 1.5, 3, "run (app.py:3)"),
        "thread 7 (main thread) holds the GIL at every look over the window and spins in libfoo.so "
        "(spin_wait): 1.50 CPU-s, no byte moved, the same stack at 3 looks, called from run (app.py:3)",
    ),
    (
        ev.GilHolderSpins(7, "main thread", "libfoo.so", "spin_wait", 1.5, 3, None),
        "thread 7 (main thread) holds the GIL at every look over the window and spins in libfoo.so "
        "(spin_wait): 1.50 CPU-s, no byte moved, the same stack at 3 looks",
    ),
    (
        ev.LibThreadsWaitGil((8, 9, 10), "libfoo.so", "take_gil"),
        "3 thread(s) started by libfoo.so (8, 9, 10) wait for the GIL in take_gil: they call back into "
        "Python, and the spinning thread waits for their work while holding the GIL they need",
    ),
    (
        ev.ChildDeadlocked(10, 20),
        "process 10 waits in wait4() for its child 20, which is deadlocked",
    ),
    (
        ev.WritersDeadlocked(10, "pipe:[9]", (20,)),
        "process 10 waits in read() on pipe:[9]; its only writer 20 (its child) is deadlocked",
    ),
    (
        ev.WritersDeadlocked(10, "pipe:[9]", (20, 21)),
        "process 10 waits in read() on pipe:[9]; its only writers 20, 21 (its child) are deadlocked",
    ),
    (
        ev.QuietOverHang(10, 20, "deadlock", "threads wait on a mutex"),
        "no progress from process 10 while process 20 in its tree is deadlocked: threads wait on a mutex",
    ),
    (
        ev.StoppedByTerminal(20, "/dev/pts/4", "ioctl"),
        "child 20 is stopped by the job control of /dev/pts/4: it called ioctl() on it from a background process "
        "group it leads, one no shell outside made (SIGTTIN, SIGTTOU)",
    ),
    (
        ev.NotToldOfStops(10, "wait4", (9,)),
        "process 10 waits in wait4() without WUNTRACED: it is never told of the stop, so it never continues the "
        "child; none of 9 runs or has a timer: nothing in the tree will send the SIGCONT",
    ),
    (
        ev.NotToldOfStops(10, "waitid", ()),
        "process 10 waits in waitid() without WUNTRACED: it is never told of the stop, so it never continues the "
        "child; no other process is looked at: nothing in the tree will send the SIGCONT",
    ),
)


@pytest.mark.parametrize(
    ("fact", "sentence"), TABLE, ids=lambda x: type(x).__name__ if not isinstance(x, str) else ""
)
def test_each_fact_is_worded_as_its_sentence(fact: ev.Fact, sentence: str) -> None:
    assert words.word(fact) == sentence


def test_every_kind_of_fact_has_a_row() -> None:
    kinds = set(typing.get_args(ev.Fact))
    assert kinds == {type(fact) for fact, _ in TABLE}


def test_facts_are_worded_in_their_order() -> None:
    facts = (ev.GilFree(), ev.Note("b"), ev.BatchesBefore(1))
    assert words.evidence(facts) == tuple(words.word(f) for f in facts)
