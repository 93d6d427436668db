"""The catalogue's spins: real bugs where a thread burns CPU in a loop waiting for something that
cannot come (work from threads that wait for the GIL it holds, threads fork() did not copy,
results a dead handler left in a pipe).

Kept apart from the cycles because a spin is judged differently: nothing sleeps, so `inspect`
must see the loop over a window and say ``livelock`` (exit 1 all the same).
"""

from __future__ import annotations

from gvlstress.judge import names
from gvlstress.model.controls import RealBug

_DUCKDB_PANDAS_DEPS = (
    "pandas==1.5.3",
    "numpy==1.23.5",
    "python-dateutil==3.0.0",
    "pytz==2026.6",
    "six==1.17.0",
    "tzdata==2026.6",
)


SPINS: tuple[RealBug, ...] = (
    RealBug(
        "duckdb-fsspec-gil-spin",
        "duckdb 1.2.1: from_parquet over a Python fsspec filesystem spins with the GIL held; its "
        "scheduler threads wait for the GIL to open the files",
        "https://github.com/duckdb/duckdb/issues/16501 (fixed in 1.2.2 by https://github.com/duckdb/duckdb/pull/16522)",
        "duckdb_fsspec",
        names.GIL_SPIN,
        packages=("duckdb==1.2.1", "fsspec==2025.2.0"),
        control_packages=("duckdb==1.2.2", "fsspec==2025.2.0"),
        verdict="livelock",
        shape="spin",
    ),
    RealBug(
        "duckdb-pandas-gil-spin",
        "duckdb 0.6.1: write_csv of a pandas relation with an object column drives the pipeline "
        "with the GIL held; the scan task waits for the GIL",
        "https://github.com/duckdb/duckdb/pull/6179 (fixed in 0.7.0 by https://github.com/duckdb/duckdb/pull/6186)",
        "duckdb_pandas_gil",
        names.GIL_SPIN,
        packages=("duckdb==0.6.1", *_DUCKDB_PANDAS_DEPS),
        control_packages=("duckdb==0.7.0", *_DUCKDB_PANDAS_DEPS),
        verdict="livelock",
        python="3.10",
        shape="spin",
    ),
    RealBug(
        "onnxruntime-fork",
        "onnxruntime 1.20.1: a forked child runs a parallel-executor session made in the parent; "
        "it spins waiting for inter-op pool threads fork() did not copy",
        "https://github.com/microsoft/onnxruntime/issues/9800 (workaround: create sessions after fork, "
        "https://github.com/microsoft/onnxruntime/pull/31961)",
        "ort_fork",
        names.FORK_AFTER_INIT,
        packages=(
            "onnxruntime==1.20.1",
            "onnx==1.17.0",
            "numpy==1.26.4",
            "coloredlogs==15.0.1",
            "flatbuffers==25.12.19",
            "humanfriendly==10.0",
            "mpmath==1.3.0",
            "packaging==26.4",
            "protobuf==7.36.2",
            "sympy==1.14.0",
        ),
        verdict="livelock",
        shape="spin",
    ),
    RealBug(
        "numba-tbb-fork-handler",
        "numba 0.51.2 + TBB 2020: fork() while another thread ran a parallel function; numba's "
        "prepare handler spins in sched_yield for that thread's TBB scheduler",
        "https://github.com/numba/numba/issues/5983 (control: numba 0.54.1 with oneTBB 2021.4)",
        "numba_tbb_fork",
        names.FORK_HANDLER,
        packages=("numba==0.51.2", "llvmlite==0.34.0", "tbb==2020.0.133", "numpy==1.19.5"),
        control_packages=("numba==0.54.1", "llvmlite==0.37.0", "tbb==2021.4.0", "numpy==1.19.5"),
        verdict="livelock",
        python="3.8",
        shape="spin",
    ),
    RealBug(
        "faiss-fork-active-wait",
        "faiss-cpu 1.13.2 (libgomp) with OMP_WAIT_POLICY=ACTIVE: a search in a forked child spins "
        "at the OpenMP barrier for threads fork() did not copy",
        "https://github.com/facebookresearch/faiss/issues/5206 (workaround: OMP_NUM_THREADS=1; "
        "https://gcc.gnu.org/onlinedocs/libgomp/GOMP_005fSPINCOUNT.html)",
        "faiss_fork_active",
        names.FORK_AFTER_INIT,
        packages=("faiss-cpu==1.13.2", "numpy==2.2.6", "packaging==26.4"),
        verdict="livelock",
        python="3.12",
        env=(("OMP_WAIT_POLICY", "ACTIVE"),),
        shape="spin",
    ),
    RealBug(
        "pool-result-unpickle-spin",
        "multiprocessing.Pool: the result handler dies on an exception it cannot unpickle; the "
        "worker handler spins on the results left in the pipe",
        "https://github.com/python/cpython/issues/79492 (bpo-35311; same: https://github.com/python/cpython/issues/103061)",
        "result_unpickle",
        names.LOST_RESULTS,
        tree=True,
        verdict="livelock",
        shape="spin",
        args=("spin",),
    ),
)
