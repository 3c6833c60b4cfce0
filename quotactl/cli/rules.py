"""``quotactl rules [CODE]``: list every rule, or show one rule's documentation."""

from __future__ import annotations

import json

import typer
from rich.markdown import Markdown
from rich.table import Table

from quotactl.cli.common import EXIT_USAGE, OutputFormat, write
from quotactl.lint.rule import Rule, registry
from quotactl.report.console import render_to_text, stdout_is_tty, use_color


def rules_command(
    code: str = typer.Argument(None, help="A rule code (e.g. KQ104) to show its documentation."),
    output: OutputFormat = typer.Option(OutputFormat.table, "--output", "-o", help="Output format."),
) -> None:
    """List the lint rules (code, name, severity, summary), or document one rule."""
    rules = registry()
    if code:
        r = rules.get(code.upper())
        if r is None:
            import difflib

            close = difflib.get_close_matches(code.upper(), list(rules), n=3, cutoff=0.5)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            typer.echo(f"quotactl: error: no rule {code!r}{hint}; 'quotactl rules' lists them", err=True)
            raise typer.Exit(EXIT_USAGE)
        write(render_one(r, output))
        return
    write(render_all(list(rules.values()), output))


def rule_dict(r: Rule) -> dict:
    return {
        "code": r.code, "name": r.name, "severity": r.severity.value, "dialect": r.dialect, "layer": r.layer,
        "kinds": list(r.kinds), "gate": r.gate, "summary": r.summary,
        "doc": {"what": r.doc.what, "why": r.doc.why, "fix": r.doc.fix, "bad": r.doc.bad, "good": r.doc.good,
                "source": r.doc.source},
    }


def render_all(rules: list[Rule], output: OutputFormat) -> str:
    if output == OutputFormat.json:
        return json.dumps({"version": 1, "rules": [rule_dict(r) for r in rules]}, indent=2) + "\n"
    if output == OutputFormat.plain or not stdout_is_tty():
        return "".join(f"{r.code}\t{r.severity.value}\t{r.name}\t{r.summary}\n" for r in rules)
    table = Table(header_style="bold")
    for col in ("Code", "Severity", "Name", "Layer", "Summary"):
        table.add_column(col, overflow="fold")
    for r in rules:
        table.add_row(r.code, r.severity.value, r.name, r.layer, r.summary)
    return render_to_text([table], color=use_color())


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


def render_one(r: Rule, output: OutputFormat) -> str:
    if output == OutputFormat.json:
        return json.dumps({"version": 1, **rule_dict(r)}, indent=2) + "\n"
    if output == OutputFormat.plain or not stdout_is_tty():
        return markdown_doc(r)
    return render_to_text([Markdown(markdown_doc(r))], color=use_color())
