"""The pytest plugin, driven in a subprocess (pytester) so a hang cannot take this run down."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

HEALTHY = """
def test_native_loader(gvlstress):
    result = gvlstress.run(workers=2, rayon=4, waves=1, iterations=20)
    gvlstress.assert_no_hang(result)
    assert result.summary.verdict.value == "ok"
"""

HANGS = """
def test_native_loader_hangs(gvlstress):
    result = gvlstress.run(workers=2, rayon=8, waves=1, fault="lock_across_par_iter")
    gvlstress.assert_no_hang(result)
"""


def test_a_clean_run_passes(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(HEALTHY)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--gvlstress-report-dir", "out")
    result.assert_outcomes(passed=1)
    assert len(list((pytester.path / "out").glob("*/run.json"))) == 1


def test_a_hang_fails_with_verdict_pattern_and_report(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(HANGS)
    # runpytest_subprocess raises if the inner pytest does not return: a wedge fails the test
    result = pytester.runpytest_subprocess("--gvlstress-report-dir", "out", timeout=180)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*gvlstress: deadlock in 1 of 1 wave of adhoc: deadlock (lock held across a parallel region)*",
            "*hint: don't hold a lock across par_iter/join*",
            "*report: out/*/report.md*",
        ]
    )
    assert len(list(pytester.path.glob("out/*/report.md"))) == 1


def test_report_dir_precedence_cli_env_ini(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeini("[pytest]\ngvlstress_report_dir = from-ini\n")
    pytester.makepyfile(HEALTHY)
    pytester.runpytest_subprocess().assert_outcomes(passed=1)
    assert list(pytester.path.glob("from-ini/*/run.json"))
    monkeypatch.setenv("GVLSTRESS_REPORT_DIR", "from-env")
    pytester.runpytest_subprocess().assert_outcomes(passed=1)
    assert list(pytester.path.glob("from-env/*/run.json"))
    pytester.runpytest_subprocess("--gvlstress-report-dir", "from-cli").assert_outcomes(passed=1)
    assert list(pytester.path.glob("from-cli/*/run.json"))


def test_a_bad_setting_names_its_source(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\ngvlstress_margin = soon\n")
    pytester.makepyfile(HEALTHY)
    result = pytester.runpytest_subprocess()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*gvlstress: ini option gvlstress_margin: expected a number, got 'soon'*"])


def test_the_run_reports_before_pytest_timeout_fires(pytester: pytest.Pytester) -> None:
    # GIVEN a livelock (judged only at the launch timeout) with a 300 s scenario timeout,
    # in a test that pytest-timeout kills after 45 s
    pytester.makepyfile("""
        import pytest

        @pytest.mark.timeout(45)
        def test_spins(gvlstress):
            result = gvlstress.run(workers=2, rayon=4, waves=1, fault="spin", timeout=300)
            assert any("launch timeout capped" in w for w in result.warnings)
            gvlstress.assert_no_hang(result)
    """)
    result = pytester.runpytest_subprocess("--gvlstress-margin", "25", timeout=200)
    # THEN the test fails with gvlstress's verdict, not with pytest-timeout's kill
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*gvlstress: livelock in 1 of 1 wave*livelock/spin*"])
    result.stdout.no_fnmatch_line("*Timeout*")
