# A plugin registry that scans in a thread at import time and waits for it (python/cpython#125037).
import threading

msg = "hello from mod_hang"

def scan():
    import mod_hang  # the module is still being imported by the main thread: waits on its module lock
    print("scan", mod_hang.msg)

t = threading.Thread(target=scan)
t.start()
print("ready", flush=True)
t.join()
