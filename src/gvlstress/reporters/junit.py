"""junit.xml: one test case per wave, so CI shows a hung launch as a failed test. Valid XML
whatever the outcomes hold (a loader's message with NULs or escapes), and small: one line per
wave, the rest in report.md."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from gvlstress.model import RunResult, Verdict, WaveResult
from gvlstress.system.text import clip, one_line, printable

MESSAGE_CHARS = 1000
"""A failure's message attribute (CI shows it on one line) is cut to this; report.md has more."""


def _message(wave: WaveResult) -> str:
    bad = [w for w in wave.workers if w.verdict is wave.verdict]
    text = clip(one_line(bad[0].verdict_line), MESSAGE_CHARS) if bad else ""
    return f"wave {wave.index + 1}: {wave.verdict.value} ({len(bad)} of {len(wave.workers)} workers): {text}"


def render(result: RunResult, report_path: str) -> str:
    name = f"gvlstress.{result.scenario.name}"
    s = result.summary
    suite = ET.Element(
        "testsuite",
        name=name,
        tests=str(len(result.waves)),
        failures=str(s.hung),
        errors=str(s.crashed + s.errored),
        time=f"{sum(w.wall_s for w in result.waves):.3f}",
        timestamp=result.started_at,
    )
    for wave in result.waves:
        case = ET.SubElement(
            suite, "testcase", classname=name, name=f"wave-{wave.index + 1}", time=f"{wave.wall_s:.3f}"
        )
        body = f"See {report_path} for the diagnosis, evidence and stacks."
        if wave.verdict.is_hang:
            ET.SubElement(case, "failure", message=_message(wave), type=wave.verdict.value).text = body
        elif wave.verdict in (Verdict.CRASH, Verdict.ERROR):
            ET.SubElement(case, "error", message=_message(wave), type=wave.verdict.value).text = body
        elif wave.interrupted:
            ET.SubElement(case, "skipped", message="run interrupted")
    ET.indent(suite)
    # ElementTree escapes markup but writes control characters as they are, which no XML parser
    # accepts: every one is escaped visibly (names and paths came from outside too)
    return printable(
        '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suite, encoding="unicode") + "\n"
    )
