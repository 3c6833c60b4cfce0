"""The ``quotactl`` command: a Typer app wiring the subcommands, and the never-a-traceback guard."""

from __future__ import annotations

import importlib
import os
import sys

from quotactl import __version__

# Command name -> (module, function), in help order. A run imports only its command's module
# (each module imports the engine it drives): `--version` or a lint loads no engine it does not use.
COMMANDS = {
    "lint": ("quotactl.cli.lint", "lint_command"),
    "rules": ("quotactl.cli.rules", "rules_command"),
    "explain": ("quotactl.cli.explain", "explain_command"),
    "queues": ("quotactl.cli.queues", "queues_command"),
    "preempt": ("quotactl.cli.preempt", "preempt_command"),
    "schedule": ("quotactl.cli.schedule", "schedule_command"),
    "simulate": ("quotactl.cli.simulate", "simulate_command"),
    "diff": ("quotactl.cli.diff", "diff_command"),
    "shares": ("quotactl.cli.shares", "shares_command"),
    "workload": ("quotactl.cli.workload", "workload_command"),
    "snapshot": ("quotactl.cli.snapshot", "snapshot_command"),
    "convert": ("quotactl.cli.convert", "convert_command"),
}


# The one line `quotactl --help` gives each command (at most 64 characters: 80 columns).
SUMMARIES = {
    "lint": "Check Kueue objects or a YuniKorn queues.yaml.",
    "rules": "List the lint rules, or document one.",
    "explain": "Why a workload is pending (or admitted), as the scheduler decides.",
    "queues": "The YuniKorn queue tree as YuniKorn runs it.",
    "preempt": "Which workloads would be preempted for a pending one, and why.",
    "schedule": "Dry-run Kueue's scheduling cycles on a cluster snapshot.",
    "simulate": "Simulate Kueue in virtual time: arrivals, runs, preemptions.",
    "diff": "What a Kueue configuration change does to every workload.",
    "shares": "Kueue's fair-share tree and the order it admits queue heads.",
    "workload": "The Workloads Kueue would create for job manifests.",
    "snapshot": "Write what quotactl reads from a cluster, to replay offline.",
    "convert": "Convert Kueue manifests to v1beta2, as Kueue's webhook does.",
}


def _version(value: bool) -> None:
    import typer

    if value:
        typer.echo(f"quotactl {__version__}")
        raise typer.Exit(0)


def build_app(commands=tuple(COMMANDS)):
    """The Typer app with ``commands`` registered."""
    import typer  # not for a bare --version

    built = typer.Typer(
        name="quotactl",
        help="Lint, explain and dry-run Kueue and Apache YuniKorn queue configurations.",
        no_args_is_help=True,
        add_completion=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,  # plain help (cli/help.py): brackets are text, not rich markup
        context_settings={"help_option_names": ["-h", "--help"]},
    )

    @built.callback()
    def root(
        version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
    ) -> None:
        """Lint, explain and dry-run Kueue and Apache YuniKorn queue configurations."""

    from quotactl.cli.help import QuotactlCommand

    for name in commands:
        module, function = COMMANDS[name]
        command = getattr(importlib.import_module(module), function)
        built.command(name, cls=QuotactlCommand, short_help=SUMMARIES[name])(command)
    return built


def commands_for(argv: list[str]) -> tuple[str, ...]:
    """The commands a run with ``argv`` needs: none for a bare ``--version``, the one it names,
    or all (help, completion, an unknown or missing command: their messages list them all)."""
    if any(key.endswith("_COMPLETE") for key in os.environ):
        return tuple(COMMANDS)
    first = next((a for a in argv if not a.startswith("-")), None)
    if first in COMMANDS:
        return (first,)
    if first is None and "--version" in argv and not {"-h", "--help"} & set(argv):
        return ()
    return tuple(COMMANDS)


def __getattr__(name: str):
    """``app``: every command registered (tests and library users invoke it directly)."""
    if name == "app":
        globals()["app"] = built = build_app()
        return built
    raise AttributeError(name)


def main() -> None:
    if sys.argv[1:] == ["--version"]:  # answered before Typer (and its pydantic) is even imported
        sys.stdout.write(f"quotactl {__version__}\n")
        return
    from quotactl.model.gc_pause import ONE_SHOT

    ONE_SHOT["process"] = True
    try:
        _run_command()
    except SystemExit as exc:
        _leave(exc.code)
    _leave(0)


def _leave(code) -> None:
    """End the console command's process with ``sys.exit(code)``'s status, less the
    interpreter's teardown: the output is flushed, but the objects of a big run (hundreds of MB
    for 50,000 workloads, about 0.1 s to free one by one) are left to the kernel, and no exit
    handler runs (quotactl registers none; a forked process must not run its parent's).  A
    library caller uses ``app``, never ``main``."""
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:
        sys.stderr.write(f"{code}\n")
        status = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, ValueError):  # the reader left early (`| head`): nothing more to say
            pass
        except OSError as exc:  # a full disk under a redirected report (cli.common.write's error)
            if stream is sys.stdout:
                os.write(2, f"quotactl: error: cannot write the output: {exc.strerror or exc}\n".encode())
                status = status or 2
    os._exit(status)


def _run_command() -> None:
    try:
        build_app(commands_for(sys.argv[1:]))(prog_name="quotactl")  # also under `python -m quotactl`
    except KeyboardInterrupt:
        sys.stderr.write("quotactl: interrupted\n")
        sys.exit(130)
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error worth a traceback.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0)
    except Exception as exc:  # never a traceback for users
        from quotactl.cli.common import EXIT_INTERNAL

        if os.environ.get("QUOTACTL_DEBUG"):
            raise
        sys.stderr.write(f"quotactl: internal error: {type(exc).__name__}: {exc} "
                         "(this is a bug; rerun with QUOTACTL_DEBUG=1 for details)\n")
        sys.exit(EXIT_INTERNAL)
