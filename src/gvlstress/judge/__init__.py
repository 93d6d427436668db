"""Pure judging: facts in (/proc samples, stacks, a wave's bookkeeping), verdict and explanation
out. Nothing here reads a process or starts one; it imports the shared types only.

- `waits`, `threads`: what one thread waits on; CPU and parking across two samples.
- `vocab`: the one vocabulary of frames, thread roles and idle shapes.
- `chain`, `verdict`: follow the progress thread's wait; the verdict (`judge`, `decide`).
- `patterns`: named shapes and failure causes; `explain`: the Diagnosis and stack groups.
- `tree`, `activity`: across processes (``inspect --tree``); over time (``--watch``).
- `outcome`: a worker's verdict at the wave's end; `audit`: thread caps against the budget.
"""
