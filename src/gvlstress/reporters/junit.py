"""junit.xml: one test case per wave, so CI shows a hung launch as a failed test."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from gvlstress.model import RunResult, Verdict, WaveResult


def _message(wave: WaveResult) -> str:
    bad = [w for w in wave.workers if w.verdict is wave.verdict]
    text = bad[0].verdict_line if bad else ""
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
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suite, encoding="unicode") + "\n"
