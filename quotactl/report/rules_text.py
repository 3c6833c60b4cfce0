"""Human output of ``quotactl rules``: the list as a table (tab-separated when piped), one rule's
documentation as Markdown (rendered on a terminal)."""

from __future__ import annotations

import re

from quotactl.lint.rule import Rule
from quotactl.report.console import FIXED, ID, TEXT, Col, Sheet, View, plain_text, render_to_text
from quotactl.report.renderers import register
from quotactl.report.rules_markdown import rule_markdown


def render_all_plain(rules: list[Rule]) -> str:
    return plain_text([f"{r.code}\t{r.severity.value}\t{r.name}\t{r.summary}" for r in rules])


def render_all_table(rules: list[Rule], view: View = View()) -> str:
    """Narrow (80 columns): a rule's name (up to 46 characters, never split) under its summary."""
    from rich.text import Text

    table = Sheet([Col("Code", FIXED), Col("Severity", FIXED), Col("Name", ID, wide=True),
                   Col("Layer", FIXED, wide=True), Col("Summary", TEXT, ratio=3, wide=True),
                   Col("Summary", TEXT, wide=False)], view)
    for r in rules:
        table.add_row(r.code, r.severity.value, r.name, r.layer, r.summary,
                      Text(r.summary).append(f"\n{r.name}", style="dim"))
    return render_to_text([table], view=view)


def markdown_doc(r: Rule) -> str:
    """One rule's page as Markdown source, its prose as written (the plain output shows the source)."""
    return rule_markdown(r, level=1, text=str)


_CODE_SPAN_OR_FENCE = re.compile(r"(```.*?```|`[^`\n]*`)", re.S)


def escape_html_like(md: str) -> str:
    """``<name>`` outside code spans and fences as ``\\<name>``: Markdown renderers take it for an
    HTML tag and drop it (``rules KQ502`` printed "ClusterQueue  doesn't exist")."""
    parts = _CODE_SPAN_OR_FENCE.split(md)
    return "".join(p if i % 2 else p.replace("<", "\\<") for i, p in enumerate(parts))


def render_doc_table(r: Rule, view: View = View()) -> str:
    from rich.markdown import Markdown  # markdown-it and its plugins: only for a rule's page

    return render_to_text([Markdown(escape_html_like(markdown_doc(r)))], view=view)


register("rules", "plain", lambda rules, view: render_all_plain(rules))
register("rules", "table", render_all_table)
register("rule", "plain", lambda r, view: markdown_doc(r))
register("rule", "table", render_doc_table)
