#!/usr/bin/env python3
"""Write cases/*/CASE.md and README.md (with the table pin.py reads) from tools/casedata.py."""
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE / "tools"))
import casedata  # noqa: E402

rows = []
for name, d in casedata.CASES.items():
    cfg = json.loads((HERE / "cases" / name / "case.json").read_text())
    interp = ", ".join(f"`{k}` = `{v}`" for k, v in cfg.items() if k.endswith("python"))
    chain = "\n".join(f"{i}. {c}" for i, c in enumerate(d["chain"], 1))
    md = f"""# {name}

**Source:** {d['source']}

**Pinned:** {d['lib']}

**Interpreters (case.json):** {interp}

**Mechanism:** {d['mech']}

## Expected explanation (wait-for chain)

{chain}

**How the chain ends:** {d['end_text']}

## Control and look-alike

- `control.py`: the same program with the fix or the fixed release ({d['control']}); it completes.
- `lookalike.py`: same shape, healthy: {d['look']}; it completes by itself.
- Every program prints `ready` when its wait (or its shape) is in place; `hang.py` stays hung until killed.
"""
    (HERE / "cases" / name / "CASE.md").write_text(md)
    rows.append(f"| {name} | {d['lib']} | {d['source']} | {d['mech']} | {d['end']} |")

readme = f"""# Fifth blind corpus of real hangs (measure gvlstress blind)

Same format as `/work/main/blind/hangs4`: each folder under `cases/` holds `hang.py` (hangs every time, prints
`ready` when the wait is in place), `control.py` (the fix or the fixed release: it completes), `lookalike.py`
(same shape, healthy: completes by itself in about 16 s), `case.json` (interpreters, portable `pins`, expected
`end`) and `CASE.md` (source, pins, the expected wait-for chain and how it ends). None of these cases is among
the 115 of `blind/hangs`, `blind/hangs2`, `blind/hangs3` and `blind/hangs4` (neither the same bug nor the same
mechanism in the same library).

- `../tools/check.py` (run from this directory): quick self-check (`check-all.txt`); `tools/repeat_hangs.py`: every
  hang started 3 times (`repeat-hangs.txt`); `tools/trial.py PY SCRIPT`: one program under a deadline.
- `../tools/measure.py --code SRC`: runs gvlstress (`inspect --tree`, `watch --stall 3 --on-hang kill`);
  stage files `results-s*.json`, raw outputs under `runs/` (not copied here).
- `../tools/score.py results-s1.json results-s2.json ... [--md before.md]`: merges the stage files and scores them.
- `../tools/pin.py`: writes `pins` and `end` into each case.json from this table; `tools/casedata.py` +
  `tools/write_casemd.py`: the source of this README's table and of every CASE.md.
- Venvs: `/work/blind-hangs5/venvs/NAME` (re-create with `tools/mk-venv.sh NAME PYVER pkgs...`, a copy of `venvs/mk.sh`; versions in each CASE.md
  and case.json pins). Cases 13 and 15 need PostgreSQL 15 (`/usr/lib/postgresql/15/bin`, Debian, user `postgres`);
  case 14 needs `openssl` only to regenerate its certificate; the dropped case 24 mounts a tmpfs (root).

## Counts

- 24 cases (numbered 01-23 and 25; case 24 was dropped, see below): 12 standard library, 12 PyPI; 14 programs with
  more than one process (counting killed lock holders whose part in the chain remains, cases 11 and 21, and
  re-parented parties outside the tree, cases 04, 13, 14, 22); expected ends: 9 cycle, 4 self-wait, 5 dead or gone
  party, 3 nobody can end it, 3 may still end from outside.
- Resources: locks/futexes (05, 06, 16, 17, 23, 25), the GIL (05, 23), pipes and FIFOs (04, 19, 22), unix datagram
  socket (04), TCP (07, 08, 09, 13, 14, 15), ptys (01, 10), child processes and signals (03, 19, 22), lock files
  (11), POSIX semaphores (21), event loops (02, 09, 12, 15, 17, 18, 20, 22).
- Built 2026-11-28 outside the git checkout. `repeat-hangs.txt`: every hang started 3 times; `check-all.txt`:
  every hang stays hung, every control and look-alike ends (look-alikes in 16-24 s).
- Dropped: `dropped/24_watchdog_unschedule_after_unmount_inotify_read` (watchdog 2.1.6, gorakhargosh/watchdog#869):
  it hung 3/3 in `repeat-hangs.txt` and in `check-all.txt`, but under measurement its hang ended: the stuck thread
  waits in read() on an inotify fd that another thread has already closed, so any interruption of that read()
  (as inspecting the process causes) restarts it on the closed fd, it fails with EBADF, the thread dies and the
  join returns. Not a hang that stays hung while looked at; removed from the stage files before scoring
  (`results-s3-with-dropped-24.json` keeps its BEFORE run).

## Measurement

- BEFORE (blind, commit 58ba81d, worktree `/work/blind5-before`): `results-s1.json`..`results-s3.json` (stages,
  logs `measure-s*.log`; s1 08:58-09:13 (8 cases), s2 09:01-09:24 (8), s3 09:13-09:25 (9, with the later dropped
  case 24)), `results.json` (merged, with scores), `before.md`. Totals: caught 14/21 true hangs (inspect 14, watch 14),
  'may still end from outside' left unflagged 3/3, named to its end 13/24, look-alikes flagged 1/24, controls 0/24,
  same words 8/24.
- AFTER (commit 86766c7, worktree `/work/blind5-after`, measured 09:37-10:03 after the commit id appeared in
  `/work/notes/after5-commit.txt`): `results-after-s1.json`..`results-after-s3.json` (logs `measure-after-s*.log`),
  `results-after.json`, `after.md`. Totals identical to BEFORE, case by case (same flags, verdicts, ends, words).
- Fix-up of the BEFORE stage files: they were measured with the relative `--runs runs` of the brief; measure.py hands
  that relative `--report-dir` to `gvlstress watch`, which runs with cwd = the case folder, so the watch reports landed
  under `cases/NAME/runs/` and measure.py did not find them (its stderr fallback looks for lines starting with `hang
  after`, which this gvlstress prefixes with `gvlstress watch: `): every watch step read as not flagged.
  `tools/fix_watch_paths.py` moved the reports to `runs/` and re-derived `flagged` with measure.py's own rule (exit 1
  and a hang in watch.json); the untouched stage files are kept as `results-s*.json.orig`. The AFTER stages were run
  with an absolute `--runs` and needed no fix-up. (The same harness quirk may affect any corpus measured with a
  relative `--runs` on this gvlstress: check `runs_dir` and the `json` fields of watch steps.)
- Load: `tools/check.py` and `tools/repeat_hangs.py` ran during BEFORE stages 1-2, the two BEFORE (and the two AFTER)
  stages overlapped, and another measurement not started by this helper (`measure.py --code /work/main/src
  --conditions alone`) ran on the same 2 cores (load average 7-14).


| case | library@version | source | mechanism | expected end |
|---|---|---|---|---|
""" + "\n".join(rows) + "\n"
(HERE / "README.md").write_text(readme)
print(len(rows), "cases")
