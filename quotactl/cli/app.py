"""The ``quotactl`` command: a Typer app wiring the subcommands, and the never-a-traceback guard."""

from __future__ import annotations

import os
import sys

import typer

from quotactl import __version__
from quotactl.cli.common import EXIT_INTERNAL
from quotactl.cli.convert import convert_command
from quotactl.cli.diff import diff_command
from quotactl.cli.explain import explain_command
from quotactl.cli.lint import lint_command
from quotactl.cli.preempt import preempt_command
from quotactl.cli.queues import queues_command
from quotactl.cli.rules import rules_command
from quotactl.cli.schedule import schedule_command
from quotactl.cli.shares import shares_command
from quotactl.cli.snapshot import snapshot_command
from quotactl.cli.workload import workload_command

app = typer.Typer(
    name="quotactl",
    help="Lint, explain and dry-run Kueue and Apache YuniKorn queue configurations.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"quotactl {__version__}")
        raise typer.Exit(0)


@app.callback()
def root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
) -> None:
    """Lint, explain and dry-run Kueue and Apache YuniKorn queue configurations."""


app.command("lint")(lint_command)
app.command("rules")(rules_command)
app.command("explain")(explain_command)
app.command("queues")(queues_command)
app.command("preempt")(preempt_command)
app.command("schedule")(schedule_command)
app.command("diff")(diff_command)
app.command("shares")(shares_command)
app.command("workload")(workload_command)
app.command("snapshot")(snapshot_command)
app.command("convert")(convert_command)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("quotactl: interrupted\n")
        sys.exit(130)
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error worth a traceback.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0)
    except Exception as exc:  # never a traceback for users
        if os.environ.get("QUOTACTL_DEBUG"):
            raise
        sys.stderr.write(f"quotactl: internal error: {type(exc).__name__}: {exc} "
                         "(this is a bug; rerun with QUOTACTL_DEBUG=1 for details)\n")
        sys.exit(EXIT_INTERNAL)
