"""Human lint output: ``plain`` (one line per finding, grep-friendly) and ``table`` (rich)."""

from __future__ import annotations

from dataclasses import replace

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.lint.runner import LintReport
from quotactl.report.console import FIXED, ID, TEXT, Col, Sheet, View, plain_text, render_to_text
from quotactl.report.renderers import register

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def _where(d: Diagnostic) -> str:
    parts = [p for p in (d.object, d.field) if p]
    return f" [{' '.join(parts)}]" if parts else ""


def listed(report: LintReport) -> list[Diagnostic]:
    """The findings to print: the reported ones and, with --show-suppressed, the suppressed ones
    (marked in their message), in file order."""
    if not report.show_suppressed or not report.suppressed:
        return report.diagnostics
    marked = [replace(s.diagnostic, message=f"{s.diagnostic.message} (suppressed: {s.suppression.justification})")
              for s in report.suppressed]
    return sorted([*report.diagnostics, *marked], key=Diagnostic.sort_key)


def render_plain(report: LintReport) -> str:
    lines = []
    for d in listed(report):
        lines.append(f"{d.location()}: {d.severity.value} {d.code} {d.message}{_where(d)}")
        if d.hint:
            lines.append(f"    hint: {d.hint}")
    lines.append(summary_line(report))
    return plain_text(lines)


def summary_line(report: LintReport) -> str:
    e, w, i = (report.count(s) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO))

    def n(k: int, word: str) -> str:
        return f"{k} {word}{'' if k == 1 else 's'}"

    checked = f"{n(report.files, 'file')}, {n(report.objects, 'object')} checked"
    silenced = f" ({len(report.suppressed)} suppressed)" if report.suppressed else ""
    if not (e or w or i):
        return f"{checked}: no problems found{silenced}"
    return f"{checked}: {n(e, 'error')}, {n(w, 'warning')}, {i} info{silenced}"


# Every finding starts with its path:line:col (an editor opens it there).  The wide set (200
# columns, plain) gives the field and the hint their own columns; the narrow one puts the field
# above the message and the hint under it; at 80 columns each finding is a record: location,
# severity, code and object on a line, the field, message and hint under it.
_COLUMNS = [Col("Location", ID), Col("Severity", FIXED, record="head"), Col("Code", FIXED, record="head"),
            Col("Object", ID, record="head"), Col("Field", ID, wide=True), Col("Message", TEXT, ratio=3, wide=True),
            Col("Message", TEXT, ratio=3, wide=False, record="line"), Col("Hint", TEXT, ratio=2, wide=True)]


def _table(diags: list[Diagnostic], view: View) -> Sheet:
    from rich.text import Text

    table = Sheet(_COLUMNS, view)
    for d in diags:
        msg = Text()
        if d.field:
            msg.append(f"{d.field}\n", style="dim")
        msg.append(d.message)
        if d.hint:
            msg.append(f"\nhint: {d.hint}", style="dim")
        table.add_row(d.location(), Text(d.severity.value, style=_STYLE[d.severity]), d.code, d.object,
                      d.field, d.message, msg, Text(d.hint or "", style="dim"))
    return table


def render_table(report: LintReport, view: View = View()) -> str:
    from rich.text import Text  # only here: piped output is plain and never draws

    diags = listed(report)
    renderables = [_table(diags, view)] if diags else []
    renderables.append(Text(summary_line(report), style="bold"))
    return render_to_text(renderables, view=view)


register("lint", "table", lambda report, view: render_table(report, view))
register("lint", "plain", lambda report, view: render_plain(report))
