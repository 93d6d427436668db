import time


def slow_bucket(x: int) -> int:
    time.sleep(2.0)
    return (x * 2654435761) % 97
