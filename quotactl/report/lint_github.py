"""GitHub Actions workflow commands: one ``::error file=...,line=...::`` annotation per finding."""

from __future__ import annotations

from quotactl.diagnostics import Severity
from quotactl.lint.runner import LintReport
from quotactl.report.renderers import register

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(s: str) -> str:
    return _escape_data(s).replace(":", "%3A").replace(",", "%2C")


def render(report: LintReport) -> str:
    lines = []
    for d in report.diagnostics:
        props = f"file={_escape_property(d.file)},line={d.line},col={d.column},title={_escape_property(d.code)}"
        where = " ".join(p for p in (d.object, d.field) if p)
        text = d.message + (f" ({where})" if where else "") + (f"\nhint: {d.hint}" if d.hint else "")
        lines.append(f"::{_LEVEL[d.severity]} {props}::{_escape_data(text)}")
    return "\n".join(lines) + ("\n" if lines else "")


register("lint", "github", lambda report, view: render(report), note="annotations of a GitHub Actions run")
