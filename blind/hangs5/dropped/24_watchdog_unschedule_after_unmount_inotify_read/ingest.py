import os
import subprocess
import tempfile
import threading

from watchdog.events import FileSystemEventHandler
from watchdog.observers import Observer


class Arrivals(FileSystemEventHandler):
    def __init__(self):
        self.got = threading.Event()

    def on_created(self, event):
        print("arrived:", os.path.basename(event.src_path), flush=True)
        self.got.set()


def run(unmount_first, file_after=None):
    root = tempfile.mkdtemp(prefix="scratch-")
    subprocess.run(["mount", "-t", "tmpfs", "scratch", root], check=True)   # a job's scratch volume
    incoming = os.path.join(root, "incoming")
    os.makedirs(incoming)
    handler = Arrivals()
    observer = Observer()
    watch = observer.schedule(handler, incoming, recursive=False)
    observer.start()
    try:
        if unmount_first:
            handler.got.wait(0.3)
            subprocess.run(["umount", root], check=True)   # the volume goes away (container removed)
            handler.got.wait(0.3)
            print("ready", flush=True)
        else:
            threading.Timer(file_after, lambda: open(os.path.join(incoming, "batch-001.parquet"), "w").close()).start()
            print("ready", flush=True)
            handler.got.wait()                              # the next batch arrives after 16 s
        observer.unschedule(watch)                          # stop watching that volume
        print("unscheduled", flush=True)
        observer.stop()
        observer.join()
    finally:
        subprocess.run(["umount", root], stderr=subprocess.DEVNULL)
        os.rmdir(root) if not os.listdir(root) else None
    print("ingest stopped", flush=True)
