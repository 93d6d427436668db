"""Reporters: the only code that formats results (the console, Markdown, JSON, JUnit, raw dumps).

Modules (one line each, from their docstrings):

- `cells`: Table cells and lines both human views share (the console and report.md): computed
  once, rendered by each its own way.
- `chain`: The words of a wait-for chain (`model.waitfor.WaitFor`): one line for a terminal, the
  whole chain for a report.
- `console`: The human view: a live rich table on a terminal, plain log lines otherwise, and
  each command's summary.
- `docs`: The documentation's tables, made from the tables the code itself keeps, never typed by
  hand: the verdicts (`model.verdicts`), the patterns with...
- `files`: File writes that cannot hurt a run: atomic writes (a reader, or a crash mid-write,
  never sees half a report) and appends of whole lines.
- `json_report`: run.json: the whole parent -> wave -> worker -> thread tree, schema-versioned.
- `junit`: junit.xml: one test case per wave, so CI shows a hung launch as a failed test.
- `like`: Host profiles in words: the lines `doctor --export` prints, the conditions table of a
  ``--like`` run, and the hosts side by side in `compare`.
- `markdown`: report.md and the other Markdown files: a run's bug report (`run`), stacks
  (`stacks`), an inspection (`inspect`), campaigns (`campaign`).
- `plot`: Pictures for reports (matplotlib, the [plot] extra): the sweep's hazard heatmap.
- `raw`: Raw dumps next to the report: py-spy JSON, native stacks text and /proc samples per
  process, and the merged capture that run.json refers to.
- `reproducer`: The standalone reproducer a shrink writes: one Python file that imports the
  standard library and the user's loader only (formatting only: the...
- `shrunk`: The shrunk setting as gvlstress runs it: its scenario file (scenario.toml) and its
  run line (run.sh, and what the console and shrink.md show).
"""
