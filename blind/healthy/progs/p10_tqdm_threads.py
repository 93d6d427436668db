# interpreter: blind
# shape: a batch scoring job: ThreadPoolExecutor over numpy work (releases the GIL), a tqdm bar that
# refreshes rarely (mininterval=15), and a pure-Python post-processing stretch (GIL-bound, writes nothing)
import concurrent.futures as cf
import sys
import time

import numpy as np
from tqdm import tqdm


def score(i: int) -> float:
    rng = np.random.default_rng(i)
    a = rng.standard_normal((400, 400))
    return float(np.linalg.eigvalsh(a @ a.T)[-1])


def main() -> int:
    print("ready", flush=True)
    deadline = time.monotonic() + 18
    results: list[float] = []
    with cf.ThreadPoolExecutor(max_workers=3) as ex, tqdm(total=None, mininterval=15, file=sys.stderr) as bar:
        i = 0
        while time.monotonic() < deadline:
            futs = [ex.submit(score, i + k) for k in range(6)]
            for f in cf.as_completed(futs):
                results.append(f.result())
                bar.update(1)
            i += 6
    # post-processing in pure Python: a long quiet CPU stretch
    t_end = time.monotonic() + 14
    h = 0
    while time.monotonic() < t_end:
        for r in results:
            h = (h * 31 + int(r * 1000)) % 1_000_000_007
    print(f"scored {len(results)} hash {h}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
