"""Pure judging: facts in (/proc samples, stacks, a wave's bookkeeping), verdict and explanation
out. Nothing here reads a process or starts one; it imports the shared types only.

Modules (one line each, from their docstrings):

- `across`: Every rule over one look at a set of processes (pure): each process alone, then
  across them.
- `activity`: ``inspect``'s window: a progress signal from activity over time.
- `audit`: Thread-cap audit: threads per worker x workers against the real CPU budget.
- `case`: One process as every rule across a look sees it: one frozen input (`Case`), one shape
  for a rule (`Rule`: a case in, a new finding and its name...
- `chain`: Following the wait of the thread that must progress to the threads that could end it.
- `cycles`: Cycles of waits across processes, through any descriptor or child (pure).
- `ends`: Each judged process's wait-for chain, followed to its end (pure).
- `explain`: Explanation: a finding plus stacks -> a Diagnosis a reader can check, and the
  stacks grouped for reading (identical native stack, Python stack and...
- `finalize`: Hangs at exit with no Python frame left: the main thread is in `Py_FinalizeEx`
  (after `threading._shutdown`: module teardown, a Rust `Drop`, a...
- `forks`: Fork hangs that no lock cycle shows (pure): timed waits a library re-arms forever.
- `frames`: How stacks and thread ids are written short for a reader: recursion folded, generic
  arguments cut, runs of thread ids spanned (pure; the full...
- `jobstops`: A wait for a child that job control stopped and nothing will continue (pure).
- `loops`: Event loops (pure): what one look can and cannot tell of an asyncio loop that waits.
- `mutexes`: Waits on pthread mutexes followed to their owners (pure).
- `names`: The names of the failure patterns, their remediation hints, and a match's shape:
  shared by the native shapes (`patterns`) and the Python-level...
- `otherend`: The other end of a descriptor a thread waits on (pure): who holds it (the other
  holders of a pipe, a unix socket's peer from sock_diag, a loopback...
- `outcome`: A worker's verdict at the end of its wave: pure rules over frozen facts, tested
  without processes (``tests/test_wave_rules.py``).
- `patterns`: Named failure patterns, recognised from frames and /proc facts alone.
- `peers`: Waits on a pipe or socket, judged by whoever holds the other end (pure).
- `pools`: Process pools accounted for across a tree (pure): a result that can never arrive.
- `progress`: What counts as progress for a job gvlstress did not write (pure): ``watch``'s
  stall detector.
- `pyshapes`: Python-level shapes, from py-spy's frames (Python lines plus its native frames):
  lock-order inversions of threading locks, joins, lost wakeups...
- `pystack`: What Python stacks say of who holds the lock a thread waits for (pure): the frame
  whose code takes it (below the standard library's wait frames...
- `queues`: multiprocessing's queues and locks across processes (pure): a lost item, a lock held
  by the dead.
- `relock`: A retry of a file lock the process already holds through another open of the file
  (pure).
- `runtimes`: Native runtimes recognised by the library a frame is in, not its name: OpenMP's
  (GNU libgomp, LLVM/Intel libomp) internals are stripped in most...
- `semcycle`: Multiprocessing semaphores only processes that wait themselves could post (pure).
- `settle`: What one snapshot settles (pure): the look pipeline asks, to spend its window only
  where the verdict could still change: a closed wait its stacks...
- `spins`: Hangs that burn CPU (pure): a thread spinning in one loop for something that cannot
  come.
- `symptoms`: A hung wave's symptoms beside the ones a known hang's reporter saw, one by one, so
  a reader can see whether the run reproduced *that* hang or...
- `taskpools`: Native thread pools whose tasks wait for futures of their own pool (pure): every
  worker of the pool is inside a task blocked on a future, so none...
- `threads`: Per-thread facts across two /proc samples: CPU used, parked or not, what each waits
  on, and the threads grouped by futex address.
- `tree`: Process trees (``inspect --tree``): a parent's wait linked to what its children do.
- `verdict`: Pure judging: /proc samples, then stacks, of a process -> what it is doing and why.
- `vocab`: The one vocabulary of frames, thread roles and idle shapes that judging and reporting
  share.
- `waits`: What a thread waits on, from /proc facts alone (pure).
- `words`: Evidence worded: each kind of fact (`model.evidence`) -> the sentence a report shows,
  in one place, so a wording change is one edit and rules are...
"""
