import ctypes
import threading
import time


class DlPhdrInfo(ctypes.Structure):
    _fields_ = [("dlpi_addr", ctypes.c_void_p), ("dlpi_name", ctypes.c_char_p),
                ("dlpi_phdr", ctypes.c_void_p), ("dlpi_phnum", ctypes.c_uint16)]


CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(DlPhdrInfo), ctypes.c_size_t, ctypes.c_void_p)


def run(gil_held_in_second_call: bool, work_seconds: float = 0.5) -> None:
    names: list[str] = []
    inside = threading.Event()

    def on_library(info, size, data) -> int:   # runs inside dl_iterate_phdr, loader lock held
        names.append((info.contents.dlpi_name or b"").decode())
        if len(names) == 1:
            inside.set()
            for _ in range(10):
                time.sleep(work_seconds / 10)  # e.g. reads the library's version (GIL released meanwhile)
        return 0

    cb = CALLBACK(on_library)

    def scan_libraries() -> None:              # threadpoolctl-style scan of the loaded libraries
        ctypes.CDLL(None).dl_iterate_phdr(cb, None)
        print("scan found", len(names), "libraries", flush=True)

    t = threading.Thread(target=scan_libraries, name="threadpool-scan")
    t.start()
    inside.wait(10)
    print("ready", flush=True)
    # the main thread calls dl_iterate_phdr too (in the issue: NumPy's backtrace(), with the GIL held)
    libc = ctypes.PyDLL(None) if gil_held_in_second_call else ctypes.CDLL(None)
    count = ctypes.c_int(0)
    noop = CALLBACK(lambda info, size, data: 0)
    libc.dl_iterate_phdr(noop, None)
    t.join()
    print("done", flush=True)
