"""Type stub for the PyO3 extension (``native/src/lib.rs``)."""

__version__: str

class Loader:
    """A synthetic genomics loader; each batch runs ``par_iter`` on rayon's global pool."""

    def __init__(
        self,
        seed: int = 0,
        samples: int = 8,
        ref_len: int = 1_000_000,
        region_len: int = 16_384,
        batch_size: int = 128,
        fault: str = "none",
        fault_rate: float = 0.0,
        slow_ms: int = 1500,
        fault_log: str | None = None,
        window_us: int = 0,
    ) -> None: ...
    def next_batch(self) -> bytes:
        """One batch; raises RuntimeError when init_race drew a poisoned instance."""
    @property
    def poisoned_instances(self) -> int: ...
    @property
    def batches(self) -> int: ...
    @property
    def fault(self) -> str: ...
    @property
    def batch_bytes(self) -> int: ...

class Prefetcher:
    """A background thread that waits until told to stop; dropping it joins the thread."""

    def __init__(self, stop_on_drop: bool = True) -> None: ...
    @property
    def running(self) -> bool: ...

def current_num_threads() -> int: ...
def fault_modes() -> list[str]: ...
def hanging_fault_modes() -> list[str]: ...
