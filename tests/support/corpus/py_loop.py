"""Shape: a tight Python loop that advances (pure-Python compute, no syscall, no byte moved).

Why it matters: /proc's counters look like a spin (always running, all user time, no syscall,
no page fault), and the GIL is held; but its Python line moves between looks, and no thread
waits for it: `inspect` must say busy, never a named spin.
"""

# ruff: noqa: T201  (printing `ready` is the protocol)


def main() -> None:
    print("ready", flush=True)
    total, n = 0, 0
    while True:
        n += 1
        if n % 3:
            total += n * n
        else:
            total -= n // 7
        total %= 1_000_003


if __name__ == "__main__":
    main()
