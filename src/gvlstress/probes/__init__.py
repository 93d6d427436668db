"""Probes: read a live process (or a core) without changing it: /proc, py-spy, the native stack tools.

Modules (one line each, from their docstrings):

- `capture`: Capture a process three ways (/proc, py-spy, native stacks) and merge by thread id.
- `cgroupfs`: A process's cgroups, read (v1 and v2): CPU quota, memory limit and swap, cpuset.
- `corefile`: Read a core offline: its threads as a /proc sample would show them, its stacks by
  pystack.
- `coremaps`: What a core keeps of a process's memory (pure): ``/proc/PID/smaps`` parsed, the
  mappings the kernel itself would dump, the runs of pages that...
- `corewriter`: Keep a hung process for later: a compressed ELF core of it, bounded in size
  (``--keep-core``).
- `demangle`: Readable Rust (and C++) symbol names from whatever a stack tool printed.
- `elfcore`: The ELF core format, both ways (pure bytes in and out; x86_64 layouts).
- `filelocks`: File locks (``/proc/locks``): who holds the lock a flock/fcntl wait is for,
  including a flock whose taker exited while a process it started kept...
- `host`: Host facts for reports: interpreter, platform, CPU budget (affinity and cgroup quota),
  knobs.
- `interpreter`: Another interpreter for the workers (``--python``), for every target.
- `kin`: A process's kin as /proc shows it, read often and cheaply: its children now (a pool
  replacing workers shows as children that come and go between...
- `linematch`: ``--progress-regex`` matched in a process of its own, each line within a time
  bound.
- `mutexes`: Who holds the pthread mutex a thread waits on: glibc writes its owner's thread id
  into it.
- `native`: Native stacks of every thread, including rayon's pool threads that py-spy cannot
  see.
- `pollsets`: The descriptors a thread's poll, select or epoll wait watches (the wait's other
  ends are followed from them): an epoll instance's set from its...
- `procfs`: Per-thread facts from ``/proc/PID/task/TID``: state, wchan, syscall + futex address,
  CPU ticks.
- `profile`: Read a host's profile: the conditions that shape thread scheduling there, for a
  process.
- `progress`: A long job's counters, read cheaply enough to leave on: /proc only, never ptrace.
- `pyspy`: py-spy's view: Python frames, ``owns_gil`` and active/idle per interpreter thread.
- `shm`: Futexes in memory that processes share: which file backs a waited address, which
  processes map that file, and what a glibc semaphore there holds.
- `sleeps`: How long a sleeping thread's timer has left: read from its own memory (a sleep of
  more than a week is no timer a job waits out: ``sleep...
- `sysv`: System V semaphores (``semop``): which semaphore a blocked thread waits on, its value,
  and the last process that operated on it (``semctl`` GETPID).
- `tcp`: TCP connections as the kernel's table shows them (``/proc/PID/net/tcp{,6}``, the
  process's own network namespace; no attach): state, queues, and...
- `tools`: Run a diagnostic tool with a deadline; never let it hang the harness.
- `wiring`: Who is at the other end of a pipe or socket, and what waits in between, read from
  the kernel.
"""
