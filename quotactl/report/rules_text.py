"""Human output of ``quotactl rules``: the list as a table (tab-separated when piped), one rule's
documentation as Markdown (rendered on a terminal)."""

from __future__ import annotations

from rich.table import Table

from quotactl.lint.rule import Rule
from quotactl.report.console import render_to_text
from quotactl.report.renderers import register


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
    md = [f"# {r.code} {r.name}", "", f"*{r.summary}* — severity **{r.severity.value}**, layer {r.layer}"
          + (f", feature gate `{r.gate}`" if r.gate else "") + (f", kinds: {', '.join(r.kinds)}" if r.kinds else ""),
          "", "## What it checks", r.doc.what, "", "## Why it matters", r.doc.why, "", "## How to fix", r.doc.fix]
    if r.doc.bad:
        md += ["", "## Example that fails", "```yaml", r.doc.bad.rstrip(), "```"]
    if r.doc.good:
        md += ["", "## Fixed", "```yaml", r.doc.good.rstrip(), "```"]
    if r.doc.source:
        md += ["", f"Source: {r.doc.source}"]
    return "\n".join(md) + "\n"


register("rules", "plain", lambda rules, color: render_all_plain(rules))
register("rules", "table", lambda rules, color: render_all_table(rules, color=color))
register("rule", "plain", lambda r, color: markdown_doc(r))
def render_doc_table(r: Rule, color: bool = False) -> str:
    from rich.markdown import Markdown  # markdown-it and its plugins: only for a rule's page

    return render_to_text([Markdown(markdown_doc(r))], color=color)


register("rule", "table", lambda r, color: render_doc_table(r, color=color))
