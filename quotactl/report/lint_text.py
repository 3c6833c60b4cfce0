"""Human lint output: ``plain`` (one line per finding, grep-friendly) and ``table`` (rich)."""

from __future__ import annotations

from dataclasses import replace

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.lint.runner import LintReport
from quotactl.report.console import render_to_text
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
    return "\n".join(lines) + "\n"


def summary_line(report: LintReport) -> str:
    e, w, i = (report.count(s) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO))

    def n(k: int, word: str) -> str:
        return f"{k} {word}{'' if k == 1 else 's'}"

    checked = f"{n(report.files, 'file')}, {n(report.objects, 'object')} checked"
    silenced = f" ({len(report.suppressed)} suppressed)" if report.suppressed else ""
    if not (e or w or i):
        return f"{checked}: no problems found{silenced}"
    return f"{checked}: {n(e, 'error')}, {n(w, 'warning')}, {i} info{silenced}"


def render_table(report: LintReport, width: int | None = None, color: bool = False) -> str:
    from rich.table import Table  # only here: piped output is plain and never draws
    from rich.text import Text

    renderables = []
    by_file: dict[str, list[Diagnostic]] = {}
    for d in listed(report):
        by_file.setdefault(d.file, []).append(d)
    for file, diags in by_file.items():
        table = Table(title=Text(file, style="bold"), title_justify="left", show_lines=False, expand=False,
                      header_style="bold")
        table.add_column("Line:Col", justify="right", no_wrap=True)
        table.add_column("Severity", no_wrap=True)
        table.add_column("Code", no_wrap=True)
        table.add_column("Object / field", overflow="fold")
        table.add_column("Message", overflow="fold", ratio=1)
        for d in diags:
            where = "\n".join(p for p in (d.object, d.field) if p)
            msg = Text(d.message)
            if d.hint:
                msg.append(f"\nhint: {d.hint}", style="dim")
            table.add_row(f"{d.line}:{d.column}", Text(d.severity.value, style=_STYLE[d.severity]), d.code, where, msg)
        renderables.append(table)
    renderables.append(Text(summary_line(report), style="bold"))
    return render_to_text(renderables, width=width, color=color)


register("lint", "table", lambda report, color: render_table(report, color=color))
register("lint", "plain", lambda report, color: render_plain(report))
