"""Secrets by name as well as by value: option keys, TOML keys and environment names that say
password, secret, token, key, licence...; PEM blocks and bodies by shape; paths."""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest

from conftest import load_run, run_cli
from gvlstress.system.redact import REDACTED, redact_argv, redact_lines, redact_path, secret_name

PEM_BODY = [base64.b64encode(os.urandom(48)).decode() for _ in range(25)] + ["QUIDAQAB"]
KEY = "-----BEGIN PRIVATE KEY-----\n" + "\n".join(PEM_BODY) + "\n-----END PRIVATE KEY-----\n"


def test_names_that_say_secret_are_secret_and_thread_knobs_are_not() -> None:
    for name in ("password", "db_passwd", "API_KEY", "apiKey", "x-api-key", "MKL_LICENSE", "session",
                 "aws_secret_access_key", "GITHUB_TOKEN", "cookie", "private_key", "credentials"):  # fmt: skip
        assert secret_name(name), name
    for name in ("TOKENIZERS_PARALLELISM", "RAYON_NUM_THREADS", "batch_size", "monkey_count", "keyboard"):
        assert not secret_name(name), name


def test_a_pem_body_is_redacted_even_when_its_begin_line_scrolled_away() -> None:
    tail = redact_lines([*PEM_BODY[3:], "-----END PRIVATE KEY-----", "Traceback (most recent call last):"])
    assert not any(line in tail for line in PEM_BODY[3:-1])
    assert tail[-1] == "Traceback (most recent call last):"
    whole = redact_lines(KEY.splitlines())
    assert whole[0] == f"-----BEGIN PRIVATE KEY----- {REDACTED}"
    assert not set(PEM_BODY) & set(whole)


def test_a_path_keeps_its_other_parts() -> None:
    assert redact_path("/r/api_key=s3cr3tvalue/20261122T064720Z-adhoc") == (
        f"/r/api_key={REDACTED}/20261122T064720Z-adhoc"
    )


@pytest.mark.parametrize(
    ("argv", "kept"),
    [
        (["mysql", "-p", "hunter2", "-u", "bob"], ["mysql", "-p", REDACTED, "-u", "bob"]),
        (["sshpass", "-P", "hunter2", "x"], ["sshpass", "-P", REDACTED, "x"]),
        (["openssl", "enc", "-k", "hunter2"], ["openssl", "enc", "-k", REDACTED]),
        (["sh", "-c", "mysql -p hunter2 -e 'select 1'"], ["sh", "-c", f"mysql -p {REDACTED} -e 'select 1'"]),
        (["ssh", "-p", "22", "host"], ["ssh", "-p", "22", "host"]),  # a port: plainly no secret
        (["xargs", "-P", "4", "-k", "-v"], ["xargs", "-P", "4", "-k", "-v"]),  # a count; another flag
        (["python", "-P", "train.py"], ["python", "-P", "train.py"]),  # a script
        (["job", "--token", "1234"], ["job", "--token", REDACTED]),  # a named secret: whatever it is
    ],
)
def test_the_value_after_a_short_password_or_key_option_is_redacted(argv: list[str], kept: list[str]) -> None:
    assert list(redact_argv(argv)) == kept


@pytest.mark.slow
def test_secrets_by_name_never_reach_a_report(tmp_path: Path) -> None:
    # GIVEN secrets in option keys, a scenario's [target] table, a licence knob, a key on stderr,
    # and a report directory whose path names a key
    (tmp_path / "leaky2.py").write_text(
        "import sys\n"
        "def batches(password='', api_key='', pem=''):\n"
        "    sys.stderr.write(open(pem).read())\n"
        "    yield b'x'\n"
        "    raise RuntimeError('giving up')\n"
    )
    (tmp_path / "key.pem").write_text(KEY)
    (tmp_path / "s.toml").write_text(
        '[scenario]\nworkers = 1\nwaves = 1\niterations = 3\ntarget = "leaky2:batches"\n'
        '[target]\napi_key = "tomlsecretvalue123"\n'
    )
    reports = tmp_path / "api_key=pathsecret999"
    r = run_cli(
        ["run", "--scenario", str(tmp_path / "s.toml"), "-o", "password=optsecret456",
         "-o", f"pem={tmp_path / 'key.pem'}", "--report-dir", str(reports)],
        cwd=tmp_path, MKL_LICENSE="LICENSESECRET77", timeout=120,
    )  # fmt: skip
    assert r.returncode == 3, r.stdout + r.stderr
    # THEN none of them is in anything written or printed, and the run is still found
    files = [p for p in reports.rglob("*") if p.is_file()]
    assert any(p.name == "report.md" for p in files)
    texts = [("console", r.stdout + r.stderr)] + [(str(p), p.read_text(errors="replace")) for p in files]
    for where, text in texts:
        for secret in (
            "tomlsecretvalue123",
            "optsecret456",
            "LICENSESECRET77",
            "pathsecret999",
            *PEM_BODY[:-1],
        ):
            assert secret not in text, f"{secret[:12]}... leaked into {where}"
    run = load_run(reports)
    assert run["scenario"]["options"]["api_key"] == REDACTED
    assert run["scenario"]["options"]["password"] == REDACTED
    assert run["environment"]["thread_knobs"]["MKL_LICENSE"] == REDACTED
    assert run["run_dir"].endswith(Path(run["run_dir"]).name)  # its own name survives
    assert "api_key=<redacted>/" in run["run_dir"]


SECRET_VALUES = {
    "url": "postgres://alice:p/ss@db.internal/app",
    "bearer": "Bearer sk-live0123456789abcdefXYZ",
    "ghp": "ghp_0123456789abcdefghijABCDEFGHIJ",
    "hf": "hf_abcdefghijklmnopqrstuvwxyz012345",
    "aws": "AKIAIOSFODNN7EXAMPLE",
}


@pytest.mark.slow
def test_no_planted_secret_leaves_the_process(tmp_path: Path) -> None:
    from conftest import run_cli

    (tmp_path / "leaky.py").write_text(
        "import sys\n"
        "def batches(**options):\n"
        "    sys.stderr.write('connecting to %s\\n' % options.get('dsn'))\n"
        "    yield b'x'\n"
        "    raise RuntimeError('failed with %s' % options.get('key'))\n"
    )
    reports = tmp_path / "reports"
    r = run_cli(
        [
            "run",
            "--target",
            "leaky:batches",
            "--workers",
            "1",
            "--waves",
            "1",
            "--iterations",
            "3",
            "-o",
            f"dsn={SECRET_VALUES['url']}",
            "-o",
            f"key={SECRET_VALUES['ghp']}",
            "-o",
            f"note=password={SECRET_VALUES['hf']}",
            "--report-dir",
            str(reports),
        ],
        cwd=tmp_path,
        timeout=120,
        GVL_CACHE_URL=SECRET_VALUES["url"],
        OMP_AUTHORIZATION=SECRET_VALUES["bearer"],
        MKL_KEY=SECRET_VALUES["aws"],
        TOKENIZERS_PARALLELISM="false",
    )
    assert r.returncode == 3, r.stdout + r.stderr  # the target raised: an error, not a hang
    files = [p for p in reports.rglob("*") if p.is_file()]
    assert any(p.name == "run.json" for p in files)
    for where, text in [("console", r.stdout + r.stderr)] + [
        (str(p), p.read_text(errors="replace")) for p in files
    ]:
        for name, secret in SECRET_VALUES.items():
            core = secret.split()[-1].split("@")[0].split(":")[-1]  # the secret part itself
            assert core not in text, f"{name} leaked into {where}"
    import json

    run = json.loads(next(reports.glob("*/run.json")).read_text())
    assert run["environment"]["thread_knobs"]["TOKENIZERS_PARALLELISM"] == "false"  # a knob, kept
