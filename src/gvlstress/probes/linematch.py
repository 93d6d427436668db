"""``--progress-regex`` matched in a process of its own, each line within a time bound.

Python's ``re`` backtracks: ``^(a+)+$`` on a line of 32 a's and a b runs for minutes, and a
match holds the interpreter's lock all that time, so a watch that matched in a thread of its own
answered no signal and no tick until it ended. No linear-time engine installs from a wheel
everywhere the watch runs (google-re2's wheels want glibc 2.28 and skip some platforms; its
sdist needs RE2 and Abseil built), so the match stays Python's own, bounded instead:

- it runs here, in a child (`Matcher` starts ``python -m gvlstress.probes.linematch REGEX``),
  so the watch waits for an answer in a read that holds no lock and answers signals;
- each line gets `LINE_BOUND_S` (an interval timer: ``re`` checks for signals as it
  backtracks, and the handler abandons the match), each batch of lines `BATCH_BOUND_S` (the
  rest of a batch past it is abandoned, so a bad pattern delays the job's output by at most
  that); an abandoned line counts as no match, and is counted.

The protocol: a batch is a 4-byte big-endian length and the lines joined by newlines; the
answer is two 4-byte counts, lines matched and lines abandoned. Stdlib only; EOF on stdin (the
watch ended, or was killed) ends it.
"""

from __future__ import annotations

import os
import re
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from types import FrameType

from gvlstress.system import helper

LINE_BOUND_S = 0.25
"""A line whose match takes longer is abandoned (a progress line matches in microseconds)."""
BATCH_BOUND_S = 2.0
"""The most one batch (what one read of the job's output brought) may cost."""
ANSWER_S = BATCH_BOUND_S + 5.0
"""How long the watch waits for a batch's answer before it gives the matcher up (a stopped or
wedged child: the bounds above never let a healthy one take this long)."""
_FRAME = struct.Struct(">I")
_ANSWER = struct.Struct(">II")


class _Abandoned(Exception):
    pass


def _abandon(_signum: int, _frame: FrameType | None) -> None:
    raise _Abandoned


def count(pattern: re.Pattern[bytes], lines: list[bytes]) -> tuple[int, int]:
    """(matched, abandoned) over `lines`, each match bounded by an interval timer (main thread
    only: the timer's signal is handled there). A timer and handler already set are put back."""
    handler = signal.signal(signal.SIGALRM, _abandon)
    pending, _ = signal.getitimer(signal.ITIMER_REAL)
    start = time.monotonic()
    try:
        return _count(pattern, lines)
    finally:
        signal.signal(signal.SIGALRM, handler)
        if pending:
            signal.setitimer(signal.ITIMER_REAL, max(pending - (time.monotonic() - start), 0.001))


def _count(pattern: re.Pattern[bytes], lines: list[bytes]) -> tuple[int, int]:
    matched = abandoned = 0
    end = time.monotonic() + BATCH_BOUND_S
    for i, line in enumerate(lines):
        left = end - time.monotonic()
        if left <= 0:
            abandoned += len(lines) - i
            break
        signal.setitimer(signal.ITIMER_REAL, min(LINE_BOUND_S, left))
        try:
            matched += pattern.search(line) is not None
        except _Abandoned:
            abandoned += 1
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return matched, abandoned


def _read_exactly(fd: int, n: int) -> bytes | None:
    out = b""
    while len(out) < n:
        chunk = os.read(fd, n - len(out))
        if not chunk:
            return None
        out += chunk
    return out


def main(argv: list[str]) -> int:
    pattern = re.compile(argv[0].encode(errors="surrogateescape"))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the watch's to pass on, not ours
    while (head := _read_exactly(0, _FRAME.size)) is not None:
        body = _read_exactly(0, _FRAME.unpack(head)[0])
        if body is None:
            break
        os.write(1, _ANSWER.pack(*count(pattern, body.split(b"\n"))))
    return 0


class Matcher:
    """The watch's side: lines in, (matched, abandoned) out, never waiting past `ANSWER_S`. A
    matcher that does not answer is killed and started anew once; after that, none is left and
    no line matches."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.abandoned = 0
        self.restarts = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()  # the job's stdout and stderr are pumped by two threads
        self._start()

    def _start(self) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "gvlstress.probes.linematch", self.pattern],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,
        )

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def count(self, lines: list[bytes]) -> int:
        """How many of `lines` match (each line's bound: `LINE_BOUND_S`)."""
        with self._lock:
            return self._count(lines)

    def _count(self, lines: list[bytes]) -> int:
        proc = self._proc
        if proc is None or not lines or proc.stdin is None or proc.stdout is None:
            return 0
        body = b"\n".join(lines)
        try:
            proc.stdin.write(_FRAME.pack(len(body)) + body)
            proc.stdin.flush()
            answer = b""
            deadline = time.monotonic() + ANSWER_S
            fd = proc.stdout.fileno()
            while len(answer) < _ANSWER.size and (left := deadline - time.monotonic()) > 0:
                if select.select([fd], [], [], left)[0]:
                    chunk = os.read(fd, _ANSWER.size - len(answer))
                    if not chunk:
                        break
                    answer += chunk
        except OSError:
            answer = b""
        if len(answer) < _ANSWER.size:
            self._give_up()
            return 0
        matched, abandoned = _ANSWER.unpack(answer)
        self.abandoned += abandoned
        return int(matched)

    def _give_up(self) -> None:
        self.close()
        if self.restarts < 1:
            self.restarts += 1
            self._start()

    def close(self) -> None:
        """End the matcher (EOF on its stdin; killed if it does not end within a second)."""
        proc, self._proc = self._proc, None
        if proc is not None:
            helper.end_helper(proc, 1.0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
