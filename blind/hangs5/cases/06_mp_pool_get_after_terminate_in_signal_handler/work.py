import time


def crunch(seconds):
    time.sleep(seconds)
    return "chunk crunched"
