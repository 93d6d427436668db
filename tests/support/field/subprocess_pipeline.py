"""Shape: a subprocess pipeline, slow producer | gzip | sha256sum (a CI step streaming logs or an
export into a checksum); the producer writes a chunk every 3 s, the parent waits in wait()."""

from __future__ import annotations

import subprocess
import sys

import _field

PRODUCER = """
import sys, time
end = time.monotonic() + float(sys.argv[1])
while (left := end - time.monotonic()) > 0:
    sys.stdout.write("record\\n" * 2000)
    sys.stdout.flush()
    time.sleep(min(3.0, left))  # the next records take a while
"""


def main() -> None:
    producer = subprocess.Popen(
        [sys.executable, "-c", PRODUCER, str(_field.SECONDS + 0.5)], stdout=subprocess.PIPE
    )
    gzip = subprocess.Popen(["gzip", "-1"], stdin=producer.stdout, stdout=subprocess.PIPE)
    digest = subprocess.Popen(["sha256sum"], stdin=gzip.stdout, stdout=subprocess.PIPE)
    assert producer.stdout is not None
    assert gzip.stdout is not None
    producer.stdout.close()  # the pipes belong to the pipeline's processes now
    gzip.stdout.close()
    _field.settle(lambda: _field.in_calls(gzip.pid, ["read"]), "gzip waiting for input")
    _field.ready()
    out, _ = digest.communicate(timeout=_field.MAX_S + 30)
    assert (producer.wait(30), gzip.wait(30), digest.returncode) == (0, 0, 0)
    assert len(out.split()[0]) == 64


if __name__ == "__main__":
    main()
