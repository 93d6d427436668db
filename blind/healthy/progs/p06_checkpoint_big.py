# interpreter: blind
# shape: a training-like numpy loop that checkpoints ~400 MB with np.save + fsync every few steps,
# keeps the last two checkpoints, and reloads one (resume check)
import os
import sys
import tempfile
import time

import numpy as np


def main() -> int:
    print("ready", flush=True)
    d = tempfile.mkdtemp(prefix="bh-ckpt-")
    rng = np.random.default_rng(0)
    weights = rng.standard_normal((50_000_000,), dtype=np.float32).reshape(10_000, 5_000)  # 200 MB
    opt = np.zeros_like(weights)
    deadline = time.monotonic() + 40
    step = 0
    kept: list[str] = []
    while time.monotonic() < deadline:
        for _ in range(3):
            g = rng.standard_normal((10_000, 5_000), dtype=np.float32)
            opt *= 0.9
            opt += 0.1 * g
            weights -= 1e-3 * opt
            time.sleep(1.0)  # the "GPU" step nothing in this process sees
            step += 1
        path = os.path.join(d, f"ckpt-{step}.npz")
        with open(path + ".tmp", "wb") as fh:
            np.savez(fh, weights=weights, opt=opt, step=step)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(path + ".tmp", path)
        kept.append(path)
        if len(kept) > 2:
            os.remove(kept.pop(0))
        print(f"step {step} checkpoint {os.path.getsize(path) >> 20} MB", flush=True)
    with np.load(kept[-1]) as z:
        assert int(z["step"]) == step
    for p in kept:
        os.remove(p)
    os.rmdir(d)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
