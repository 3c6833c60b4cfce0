"""Human output of ``quotactl rules``: the list as a table (tab-separated when piped), one rule's
documentation as Markdown (rendered on a terminal)."""

from __future__ import annotations

from rich.table import Table

from quotactl.lint.rule import Rule
from quotactl.report.console import render_to_text
from quotactl.report.renderers import register
from quotactl.report.rules_markdown import rule_markdown


def render_all_plain(rules: list[Rule]) -> str:
    return "".join(f"{r.code}\t{r.severity.value}\t{r.name}\t{r.summary}\n" for r in rules)


def render_all_table(rules: list[Rule], color: bool = False) -> str:
    table = Table(header_style="bold")
    for col in ("Code", "Severity", "Name", "Layer", "Summary"):
        table.add_column(col, overflow="fold")
    for r in rules:
        table.add_row(r.code, r.severity.value, r.name, r.layer, r.summary)
    return render_to_text([table], color=color)


def markdown_doc(r: Rule) -> str:
    """One rule's page as Markdown source, its prose as written (the plain output shows the source)."""
    return rule_markdown(r, level=1, text=str)


register("rules", "plain", lambda rules, color: render_all_plain(rules))
register("rules", "table", lambda rules, color: render_all_table(rules, color=color))
register("rule", "plain", lambda r, color: markdown_doc(r))
def render_doc_table(r: Rule, color: bool = False) -> str:
    from rich.markdown import Markdown  # markdown-it and its plugins: only for a rule's page

    return render_to_text([Markdown(markdown_doc(r))], color=color)


register("rule", "table", lambda r, color: render_doc_table(r, color=color))
