# Look-alike's module: a task's lazy import that itself takes 16 s (loads a model in 10 steps).
import time

for _ in range(10):
    time.sleep(1.6)

def predict(x: int) -> int:
    return 2 * x
