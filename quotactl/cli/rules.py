"""``quotactl rules [CODE]``: list every rule, or show one rule's documentation."""

from __future__ import annotations

import difflib

import typer

from quotactl.cli.common import EXIT_USAGE, WideOption, emit
from quotactl.cli.output import output_option
from quotactl.lint.rule import registry


def rules_command(
    code: str = typer.Argument(None, metavar="CODE", help="A rule code (e.g. KQ104) to show its documentation."),
    output: str = output_option("rules", "rule"),
    wide: bool = WideOption,
) -> None:
    """List the lint rules (code, name, severity, summary), or document one rule."""
    rules = registry()
    if not code:
        emit("rules", list(rules.values()), output, wide)
        return
    r = rules.get(code.upper())
    if r is None:
        close = difflib.get_close_matches(code.upper(), list(rules), n=3, cutoff=0.5)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        typer.echo(f"quotactl: error: no rule {code!r}{hint}; 'quotactl rules' lists them", err=True)
        raise typer.Exit(EXIT_USAGE)
    emit("rule", r, output, wide)
