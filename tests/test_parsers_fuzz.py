"""Parsers never raise on junk (fuzzed with Hypothesis): /proc files, stack tool output, py-spy
JSON of any shape, run.json of any shape (a usage error, never a crash).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gvlstress.probes import filelocks, native, procfs, pyspy

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


junk = st.one_of(
    st.text(max_size=3000),
    st.binary(max_size=3000).map(lambda b: b.decode("latin-1")),
    st.integers(1, 200_000).map(lambda n: "[" * n),
    st.integers(1, 50_000).map(
        lambda n: "Traceback for thread 1 (x) []\n" + '    (C) File "a", line 1, in f\n' * n
    ),
)


@FUZZ
@given(junk)
def test_proc_parsers_never_raise(text: str) -> None:
    vol, nonvol = procfs.parse_status(text)
    assert vol is None or vol >= 0
    assert nonvol is None or nonvol >= 0
    nr, args = procfs.parse_syscall_args(text)
    assert nr is None or (nr >= 0 and len(args) <= 6)
    assert procfs.parse_syscall(text)[0] == nr
    assert procfs.parse_schedstat(text) is None or procfs.parse_schedstat(text) >= 0  # type: ignore[operator]
    assert procfs.parse_wchan(text) != ""
    assert procfs.parse_sigcgt(text) >= 0
    assert set(procfs.parse_io(text)) <= set(procfs.IO_KEYS)
    assert all(lk.inode >= 0 and lk.major >= 0 for lk in filelocks.parse_locks(text))
    with contextlib.suppress(ValueError):  # documented: "not a stat line" (a vanished thread)
        procfs.parse_stat(text)


@FUZZ
@given(junk)
def test_stack_parsers_never_raise(text: str) -> None:
    for parse in (native.parse_eustack, native.parse_gdb, native.parse_pystack):
        threads = parse(text)
        assert all(t.tid >= 0 for t in threads)
    with contextlib.suppress(ValueError):  # documented: the py-spy view is "unreadable", the run goes on
        pyspy.parse_json(text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=30,
)


@FUZZ
@given(json_values)
def test_pyspy_json_of_any_shape_is_read_or_refused(value: object) -> None:
    import json

    with contextlib.suppress(ValueError):
        threads = pyspy.parse_json(json.dumps(value))
        assert all(isinstance(t.tid, int) for t in threads)


@settings(max_examples=60, deadline=None)
@given(json_values)
def test_a_run_json_of_any_shape_is_a_usage_error_never_a_crash(
    tmp_path_factory: pytest.TempPathFactory, value: object
) -> None:
    import json

    from gvlstress import store
    from gvlstress.errors import UsageError

    d = tmp_path_factory.mktemp("run")
    doc = {"schema": store.SCHEMA, "scenario": value, "waves": value, "environment": value}
    for text in (json.dumps(value), json.dumps(doc), "[" * 100_000, "\x00\xff"):
        (d / "run.json").write_text(text, errors="surrogateescape")
        with contextlib.suppress(UsageError):
            assert store.read(d).scenario is not None


@pytest.mark.slow
def test_report_and_compare_refuse_a_run_json_with_a_null_scenario(tmp_path: Path) -> None:
    import json
    import shutil

    from conftest import ROOT, run_cli

    run_dir = tmp_path / "run"
    shutil.copytree(ROOT / "reports" / "examples" / "lock-across-par-iter", run_dir)
    data = json.loads((run_dir / "run.json").read_text())
    data["scenario"] = None
    (run_dir / "run.json").write_text(json.dumps(data))
    for args in (["report", str(run_dir), "--force"], ["compare", str(run_dir), str(run_dir)]):
        r = run_cli(args, timeout=60)
        assert r.returncode == 2, r.stdout + r.stderr
        assert r.stderr.startswith("gvlstress: error:")
        assert "malformed run.json" in r.stderr
