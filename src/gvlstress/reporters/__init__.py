"""Reporters: the only code that formats results (JSON, console; Markdown and JUnit next)."""
