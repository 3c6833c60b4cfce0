"""Options and helpers shared by every command."""

from __future__ import annotations

import sys
from enum import Enum

import typer

from quotactl.load.sources import UsageError
from quotactl.report.console import stdout_is_tty, use_color
from quotactl.report.renderers import render


class OutputFormat(str, Enum):
    table = "table"
    plain = "plain"
    json = "json"


class LintFormat(str, Enum):
    table = "table"
    plain = "plain"
    json = "json"
    sarif = "sarif"
    github = "github"


EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3

FileOption = typer.Option(
    None, "-f", "--file", metavar="PATH",
    help="YAML/JSON file, directory (recursive) or '-' for stdin; repeatable.",
)
FairSharingOption = typer.Option(
    None, "--fair-sharing/--no-fair-sharing",
    help="Treat fair sharing as on/off (default: from the input's Configuration).",
)
FeatureGatesOption = typer.Option(
    None, "--feature-gates", metavar="A=true,B=false", help="Kueue feature gates (override the input's Configuration).",
)
MaxFileSizeOption = typer.Option(
    None, "--max-file-size", metavar="SIZE", help="Refuse input files larger than this (default: no limit).",
    envvar="QUOTACTL_MAX_FILE_SIZE",
)


def fail_usage(message: str) -> None:
    """Print a one-line usage/input error and exit 2."""
    typer.echo(f"quotactl: error: {message}", err=True)
    raise typer.Exit(EXIT_USAGE)


def write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def emit(command: str, result: object, output: Enum) -> None:
    """Write ``command``'s result in the chosen format; rich tables (colour when allowed) only on a
    terminal, plain text when piped."""
    write(render(command, shown_format(output.value), result, color=use_color()))


def shown_format(fmt: str) -> str:
    return "plain" if fmt == "table" and not stdout_is_tty() else fmt


def split_codes(values: list[str] | None) -> tuple[str, ...]:
    out: list[str] = []
    for v in values or []:
        out.extend(p.strip().upper() for p in v.split(",") if p.strip())
    return tuple(out)


__all__ = ["UsageError", "emit", "fail_usage", "write", "split_codes"]
