"""Secret redaction, applied once at each door a secret can come in by.

Stdlib only: spawned workers import it (through `knobs`). The doors are few: the environment
(thread knobs), command lines, target options and scenario keys, what a worker prints or
raises, paths, and the text of diagnostic tools. Each is redacted where it enters the harness,
so the reporters format what they are given and never scan it again.

Cost: `redact_text` first asks a cheap question (does any trigger word occur, or a long run of
token alphabet?) and returns ordinary text untouched; every rule after that is linear in its
input (no pattern with an unbounded repeat before a literal that can fail), and a text longer
than `SCAN_CAP` is cut before it is scanned.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

REDACTED = "<redacted>"
SCAN_CAP = 8 * 1024 * 1024
"""Characters of one text that are scanned; the rest is cut (no report needs more)."""

SECRET_WORDS = frozenset(
    {
        "password",
        "passwd",
        "pass",
        "pwd",
        "passphrase",
        "secret",
        "secrets",
        "token",
        "tokens",
        "key",
        "keys",
        "apikey",
        "credential",
        "credentials",
        "license",
        "licence",
        "auth",
        "authorization",
        "cookie",
        "cookies",
        "session",
        "sessionid",
        "private",
        "privatekey",
        "dsn",
    }
)
"""A name (env var, option key, TOML key) whose parts include one of these holds a secret."""

_TRIGGERS = (
    "://",
    "bearer",
    "basic",
    "token",
    "gh",
    "hf_",
    "sk-",
    "xox",
    "akia",
    "asia",
    "eyj",
    "secret",
    "pass",
    "pwd",
    "key",
    "auth",
    "credential",
    "licen",
    "cookie",
    "session",
    "private",
    "dsn",
    "-----begin",
)
_LONG_RUN = re.compile(r"[A-Za-z0-9+/=_\-]{24,}")
"""Any run this long may be a key: checked by `_looks_random` before anything is replaced."""

# Linear rules: each pattern either fails within a few characters or consumes a whole token
# (possessive repeats), which Python code then inspects; no failed attempt rescans the text.
_URL = re.compile(r"://[^\s\"'<>]{1,4096}+")
_AUTH_SCHEME = re.compile(r"\b(Bearer|Basic|Token)\s+([^\s\"']{1,4096}+)", re.I)
_PREFIXED = re.compile(r"\b(?:gh[pousr]_|github_pat_|hf_|sk-|xox[abprs]-)[A-Za-z0-9_\-]{8,4096}+")
_PREFIXES = (
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "hf_",
    "sk-",
    "xoxa-",
    "xoxb-",
    "xoxp-",
    "xoxr-",
    "xoxs-",
)
_AWS = re.compile(r"\bA(?:KIA|SIA)[0-9A-Z]{16}\b")
_JWT = re.compile(r"\beyJ[\w.\-]{8,8192}+")
_PEM_HEAD = re.compile(r"-----BEGIN ([A-Z0-9 ]{1,40})-----")
_PEM_BODY = re.compile(r"[A-Za-z0-9+/]{40,80}={0,2}")
"""One line of a PEM body (64 base64 characters), seen without its BEGIN line (a tail)."""
_SEP = re.compile(r"=|(?<!:):(?!:)")
"""Where an assignment may be: '=' or a lone ':'."""
_GAP_REV = re.compile(r"\s{0,8}[\"']?")
"""Between a key and its separator, read backwards (``"api_key" : ``)."""
_KEY_RUN = re.compile(r"[\w.\-]{0,128}+")
_AFTER_KEY = re.compile(r"([\"']?\s{0,8}(?:=|:(?!:))\s{0,8}[\"']?)([^\s\"',;&]{1,4096})")
_PLAIN_VALUE = re.compile(r"(?i)true|false|yes|no|on|off|none|null|-?\d+(\.\d+)?")
_PLACEHOLDER = re.compile(r"VALUES?|KEY|TOKEN|SECRET|PASSWORD|PATH|NAME|TEXT|STRING|[XN]")
"""``KEY=VALUE``, ``--token TOKEN``: a placeholder in usage text, not a secret."""
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_RUN_STAMP = re.compile(r"\d{8}T\d{6}Z")
"""The UTC stamp that starts a run directory's name (reports/20261122T064720Z-adhoc)."""
_MANGLED = ("_R", "_ZN", "_ZZ", "__Z", "_ZL")
"""Rust v0 and Itanium C++ mangled symbols: long mixed-case runs that are names, not keys."""
_HEX = re.compile(r"[0-9a-fA-F]{32,}")
_LOWER_RUNS = re.compile(r"[a-z]+")


def name_parts(name: str) -> list[str]:
    """``GVL_API_TOKEN`` -> gvl, api, token; ``apiKey`` -> api, key; ``--password`` -> password."""
    out = []
    for chunk in re.split(r"[^A-Za-z0-9]+", name):
        out += [p.lower() for p in _CAMEL.split(chunk) if p]
    return out


def secret_name(name: str) -> bool:
    """Does this name (an env var, an option or TOML key) say it holds a secret?
    ``TOKENIZERS_PARALLELISM`` does not (tokenizers is not token)."""
    parts = name_parts(name)
    return any(p in SECRET_WORDS for p in parts) or "".join(parts[-2:]) in SECRET_WORDS


def plain_value(value: str) -> bool:
    """true/false/numbers: never a secret, whatever the name says."""
    return _PLAIN_VALUE.fullmatch(value.strip()) is not None


def _may_hold_secret(text: str) -> bool:
    low = text.lower()
    return any(t in low for t in _TRIGGERS) or _LONG_RUN.search(text) is not None


def _looks_random(word: str) -> bool:
    """A long run that reads like a key (mixed classes, no word-like letter runs), not a
    mangled symbol such as ``_ZN6seqpro6_numba16gufunc_translate`` (which has words in it)."""
    if len(word) < 32 or word.startswith(_MANGLED) or word.isdigit():
        return False
    if _RUN_STAMP.search(word):  # a path to one of our run directories: judge the other parts
        return any(_looks_random(p) for p in re.split(_RUN_STAMP.pattern + "|/", word) if len(p) >= 32)
    if _HEX.fullmatch(word):
        return True
    classes = sum(1 for p in ("[a-z]", "[A-Z]", "[0-9]") if re.search(p, word))
    longest_letters = max((len(m) for m in _LOWER_RUNS.findall(word)), default=0)
    return classes == 3 and longest_letters < 6


def _assignments(text: str) -> str:
    """KEY=value / KEY: value where the key's last part names a secret; the key stays. Found from
    the separators (a scan for two characters), each looking back at its key. (A Rust path's
    ``Key::new`` is no assignment: a colon beside a colon never separates one.)"""
    out: list[str] = []
    done = 0
    for sep in _SEP.finditer(text):
        at = sep.start()
        if at < done:
            continue
        before = text[max(0, at - 140) : at][::-1]
        gap = _GAP_REV.match(before)
        skip = gap.end() if gap else 0
        key_rev = _KEY_RUN.match(before, skip)
        key_len = (key_rev.end() - skip) if key_rev else 0
        if not key_len:
            continue
        key = text[at - skip - key_len : at - skip]
        parts = name_parts(key)
        if not parts or (parts[-1] not in SECRET_WORDS and "".join(parts[-2:]) not in SECRET_WORDS):
            continue
        m = _AFTER_KEY.match(text, at - skip)
        if m is None:
            continue
        value = m.group(2)
        if (
            value.startswith(REDACTED)
            or plain_value(value)
            or _PLACEHOLDER.fullmatch(value.rstrip(").,;:]}>'\""))
        ):
            continue
        out.append(text[done : m.start(2)])
        out.append(REDACTED)
        done = m.end(2)
    if not out:
        return text
    out.append(text[done:])
    return "".join(out)


def _pem_blocks(text: str) -> str:
    """Each PEM block from its BEGIN line through its END line (or the end of the text, when
    it was cut) becomes one redacted line; found with plain searches, never rescanned."""
    out: list[str] = []
    pos = 0
    while (i := text.find("-----BEGIN ", pos)) != -1:
        head = _PEM_HEAD.match(text, i)
        if head is None:
            out.append(text[pos : i + 11])
            pos = i + 11
            continue
        j = text.find("-----END ", head.end())
        k = text.find("-----", j + 9) if j != -1 else -1
        out.append(text[pos:i])
        out.append(f"-----BEGIN {head.group(1)}----- {REDACTED}")
        pos = k + 5 if k != -1 else len(text)
    out.append(text[pos:])
    return "".join(out)


def _url(m: re.Match[str]) -> str:
    """``scheme://user:password@host``: the password goes (it may hold any character but white
    space and @; the user none of ``:/@``)."""
    rest = m.group(0)[3:]
    at = rest.find("@")
    user, colon, _ = rest[:at].partition(":") if at > 0 else ("", "", "")
    if not colon or not user or "/" in user:
        return m.group(0)
    return f"://{user}:{REDACTED}{rest[at:]}"


def redact_text(text: str) -> str:
    """Free text (a stderr line, a traceback, a path, tool output) with secrets replaced by value."""
    if len(text) > SCAN_CAP:
        text = text[:SCAN_CAP] + f"\n... ({len(text) - SCAN_CAP} characters cut before redaction)"
    if not _may_hold_secret(text):
        return text
    if "-----BEGIN " in text:
        text = _pem_blocks(text)
    if "://" in text:
        text = _URL.sub(_url, text)
    low = text.lower()
    if "bearer" in low or "basic" in low or "token" in low:
        text = _AUTH_SCHEME.sub(_auth, text)
    if any(p in text for p in _PREFIXES):
        text = _PREFIXED.sub(REDACTED, text)
    if "AKIA" in text or "ASIA" in text:
        text = _AWS.sub(REDACTED, text)
    if "eyJ" in text:
        text = _JWT.sub(lambda m: REDACTED if m.group(0).count(".") >= 2 else m.group(0), text)
    text = _assignments(text)
    return _LONG_RUN.sub(lambda m: REDACTED if _looks_random(m.group(0)) else m.group(0), text)


def _auth(m: re.Match[str]) -> str:
    """``Bearer X`` / ``token X`` -> the scheme and a placeholder, unless X is one itself."""
    if _PLACEHOLDER.fullmatch(m.group(2).rstrip(").,;:]}>'\"")):
        return m.group(0)
    return f"{m.group(1)} {REDACTED}"


def redact_lines(lines: Iterable[str]) -> tuple[str, ...]:
    """Lines of one stream (a stderr tail): each redacted, and a PEM body seen line by line
    (its BEGIN line may have scrolled out of the tail) redacted whole."""
    out = []
    in_pem = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("-----BEGIN"):
            in_pem = True
            out.append(f"{stripped[: stripped.find('-----', 5) + 5]} {REDACTED}")
            continue
        if stripped.startswith("-----END"):
            in_pem = False
            out.append(line)
            continue
        if in_pem or _PEM_BODY.fullmatch(stripped):
            out.append(REDACTED)
            continue
        out.append(redact_text(line))
    return tuple(out)


def redact_block(text: str) -> str:
    """Multi-line free text (a traceback, a tool's stderr): `redact_lines` over its lines."""
    if not _may_hold_secret(text):
        return text
    return "\n".join(redact_lines(text.split("\n")))


def redact_path(path: str) -> str:
    """A path with each component redacted on its own: ``/r/api_key=X/run`` keeps ``/run``."""
    if not _may_hold_secret(path):
        return path
    return "/".join(redact_text(part) for part in path.split("/"))


def redact_value(name: str, value: Any) -> Any:
    """A recorded setting (a target option, a TOML key): secret-named values go whole (plain
    true/false/numbers stay), strings by value; containers recursively."""
    if isinstance(value, str):
        if secret_name(name) and not plain_value(value):
            return REDACTED
        return redact_text(value)
    if isinstance(value, Mapping):
        return {str(k): redact_value(str(k), v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_value(name, v) for v in value]
    if secret_name(name) and not isinstance(value, (bool, int, float)) and value is not None:
        return REDACTED
    return value


def redact_mapping(values: Mapping[str, Any]) -> dict[str, Any]:
    """`redact_value` over a mapping's items (target options, describe() facts)."""
    return {str(k): redact_value(str(k), v) for k, v in values.items()}


_SECRET_FLAG = re.compile(r"^--?[\w-]{0,64}$")
SECRET_SHORT_FLAGS = frozenset({"-p", "-P", "-k", "-K"})
"""Short options that take a password, passphrase or key in common tools (``mysql -p``,
``sshpass -p``, ``openssl -k``, ``zip -P``, ``curl -K``): the value after one is redacted unless
it is a plain number (``ssh -p 22``, ``xargs -P 4``) or a script (``python -P train.py``). The
cost: a ``pytest -k EXPR`` or ``-p PLUGIN`` is redacted too; a report is better without a
pytest keyword than with a password."""
_WORDS = re.compile(r"(\s+)")


def _secret_flag(flag: str) -> bool:
    """Does the value after this argument hold a secret (``--token X``, ``-p X``)?"""
    if flag in SECRET_SHORT_FLAGS:
        return True
    return _SECRET_FLAG.match(flag) is not None and secret_name(flag) and "=" not in flag


def _after_flag(flag: str, value: str) -> str:
    """The value after a secret flag: redacted whatever it is after a named one (``--pin 1234``);
    after a short one unless plainly no secret (a port, a count, a script, another flag)."""
    bare = value.strip("\"'")
    if flag in SECRET_SHORT_FLAGS and (plain_value(bare) or bare.startswith("-") or bare.endswith(".py")):
        return value
    return REDACTED


def _redact_arg(arg: str) -> str:
    key, sep, value = arg.partition("=")
    if sep and secret_name(key) and not plain_value(value) and len(key) <= 64:
        return f"{key}={REDACTED}"
    if any(c.isspace() for c in arg) and len(arg) <= SCAN_CAP:  # a shell's script (sh -c '... -p X')
        words = _WORDS.split(arg)
        for i in range(2, len(words), 2):
            flag = words[i - 2].lstrip("\"'")
            if _secret_flag(flag):
                words[i] = _after_flag(flag, words[i])
        arg = "".join(words)
    return redact_text(arg)


def redact_argv(argv: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """A command line with secrets redacted: by value in every argument, the value after a
    secret-named flag (``--token X``, ``--password X``) or a short password/key option (``-p X``,
    `SECRET_SHORT_FLAGS`) whatever it looks like, and the value of a secret-named option
    (``-o password=X``, ``--api-key=X``); a shell script's words (``sh -c '... -p X'``) alike."""
    out: list[str] = []
    for i, arg in enumerate(argv):
        if i and _secret_flag(argv[i - 1]):
            redacted = _after_flag(argv[i - 1], arg)
            if redacted == REDACTED:
                out.append(REDACTED)
                continue
        out.append(_redact_arg(arg))
    return tuple(out)


def redact_tree(value: Any, name: str = "") -> Any:
    """Facts for a report (a host snapshot, a target's facts): mappings by key name and value,
    strings by value, anything else as it is."""
    if isinstance(value, Mapping):
        return {str(k): redact_tree(v, str(k)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_tree(v, name) for v in value]
    if isinstance(value, str):
        return REDACTED if name and secret_name(name) and not plain_value(value) else redact_text(value)
    return value
