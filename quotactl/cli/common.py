"""Options and helpers shared by every command."""

from __future__ import annotations

import functools
import inspect
import sys
from dataclasses import dataclass
from enum import Enum

import typer

from quotactl.load.sources import UsageError
from quotactl.model.kueue_versions import DEFAULT_RELEASE, parse_release
from quotactl.report.console import stdout_is_tty, use_color
from quotactl.report.renderers import render


class MinSeverity(str, Enum):
    error = "error"
    warning = "warning"
    info = "info"


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


def _kueue_release(value: str | None) -> str:
    """--kueue-version, normalised to a known release ("0.19.2" -> "v0.19"); exit 2 otherwise."""
    try:
        return parse_release(value or DEFAULT_RELEASE)
    except ValueError as exc:
        fail_usage(str(exc))
        raise  # unreachable: fail_usage exits


KueueVersionOption = typer.Option(
    DEFAULT_RELEASE, "--kueue-version", metavar="vX.Y", envvar="QUOTACTL_KUEUE_VERSION", callback=_kueue_release,
    help=f"Kueue release to check against: served API versions, feature gates (default {DEFAULT_RELEASE}).",
)


def _kueue_release_if_given(value: str | None) -> str | None:
    return _kueue_release(value) if value else None


# lint: unset unless given, so that the config file's kueue-version can apply.
KueueVersionLintOption = typer.Option(
    None, "--kueue-version", metavar="vX.Y", envvar="QUOTACTL_KUEUE_VERSION", callback=_kueue_release_if_given,
    help=f"Kueue release to check against: served API versions, feature gates (default: the config file's "
         f"kueue-version, else {DEFAULT_RELEASE}).",
)
def flag(*names: str, help: str, **settings):
    """An on/off option: ``flag("--strict", help=...)``, off unless given; ``flag("--x/--no-x",
    ...)`` for a pair.  Shown without a type in --help, and a value after it (``--strict true``)
    is a usage error (cli/help.py): one style for every flag."""
    return typer.Option(None if "/" in names[0] else False, *names, help=help, **settings)


WideOption = flag("--wide", help="Human output: more columns, and no cell folded to fit the terminal (the same as "
                                 "-o wide).")


def simulation_options(prefix: str = "") -> dict:
    """The clock options ``simulate`` and ``explain --eta`` share (``prefix``: "With --eta: ")."""
    return {
        "default_runtime": typer.Option(
            None, "--default-runtime", metavar="DURATION",
            help=f"{prefix}Runtime of a workload with neither the quotactl.io/runtime annotation nor "
                 "spec.maximumExecutionTimeSeconds (default: it never finishes)."),
        "cycle_interval": typer.Option(
            None, "--cycle-interval", metavar="DURATION",
            help=f"{prefix}One scheduling cycle every DURATION (one head per ClusterQueue per cycle) instead "
                 "of cycles to the fixpoint at every event (0)."),
        "cadence": typer.Option(
            None, "--cadence", metavar="NAME",
            help=f"{prefix}A named cycle cadence: kueue-harness (Kueue's scheduler-performance harness)."),
    }


MaxFileSizeOption = typer.Option(
    None, "--max-file-size", metavar="SIZE", help="Refuse input files larger than this (default: no limit).",
    envvar="QUOTACTL_MAX_FILE_SIZE",
)


def fail_usage(message: str) -> None:
    """Print a one-line usage/input error and exit 2."""
    typer.echo(f"quotactl: error: {message}", err=True)
    raise typer.Exit(EXIT_USAGE)


def write(text: str) -> None:
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise  # the reader left (`| head`): cli.app ends quietly
    except OSError as exc:  # a full disk, a closed terminal: the environment's fault, not a bug
        fail_usage(f"cannot write the output: {exc.strerror or exc}")


def emit(command: str, result: object, fmt: str, wide: bool = False) -> None:
    """Write ``command``'s result in the format ``fmt`` (-o); rich tables (colour when allowed) only on a
    terminal, plain text when piped; ``wide`` (or ``-o wide``): the --wide view."""
    if fmt == "wide":  # kubectl's -o wide: plain when piped, as the table is (plain has every column)
        fmt = "wide" if shown_format("table") == "table" else "plain"
    write(render(command, shown_format(fmt), result, color=use_color(), wide=wide))


def is_document(fmt: str) -> bool:
    """-o json or -o yaml: one machine-readable document (no progress bar, no Outcome wrapper)."""
    return fmt in ("json", "yaml")


def shown_format(fmt: str) -> str:
    """``table`` is drawn only on a terminal (NO_COLOR takes the colour away, not the layout); piped: plain."""
    return "plain" if fmt == "table" and not stdout_is_tty() else fmt


def split_codes(values: list[str] | None) -> tuple[str, ...]:
    out: list[str] = []
    for v in values or []:
        out.extend(p.strip().upper() for p in v.split(",") if p.strip())
    return tuple(out)


def rule_codes(values: list[str] | None, option: str) -> tuple[str, ...]:
    """Codes or code prefixes given to ``option``; exit 2 with "did you mean" on one no rule has."""
    from quotactl.lint.codes import first_unknown, unknown_code_message

    codes = split_codes(values)
    bad = first_unknown(codes) if codes else None
    if bad is not None:
        fail_usage(unknown_code_message(bad, option))
    return codes


__all__ = ["UsageError", "emit", "fail_usage", "write", "split_codes"]


# --- Reading a live cluster (kubectl's option names) -------------------------------------------

CLUSTER_PANEL = "Reading a live cluster"


@dataclass(frozen=True)
class ClusterArgs:
    """The live-cluster options of a command, as given."""

    from_cluster: bool = False
    context: str | None = None
    kubeconfig: str | None = None
    namespace: str | None = None
    all_namespaces: bool = False
    request_timeout: str = "30s"
    scheduler: str = "auto"
    system_namespace: str | None = None


_CLUSTER_OPTIONS: dict[str, tuple[type, object]] = {
    "from_cluster": (bool, typer.Option(
        False, "--from-cluster", rich_help_panel=CLUSTER_PANEL,
        help="Read the objects from the API server of the kubeconfig context (with any -f files).")),
    "context": (str, typer.Option(None, "--context", metavar="NAME", rich_help_panel=CLUSTER_PANEL,
                                  help="The kubeconfig context to use (default: the current one).")),
    "kubeconfig": (str, typer.Option(None, "--kubeconfig", metavar="PATH", rich_help_panel=CLUSTER_PANEL,
                                     help="The kubeconfig file (default: $KUBECONFIG, else ~/.kube/config).")),
    "namespace": (str, typer.Option(None, "--namespace", "-n", metavar="NS", rich_help_panel=CLUSTER_PANEL,
                                    help="Report the workloads of this namespace only (explain --all, schedule, "
                                         "simulate, shares, diff; the rest still count); explain/preempt: the "
                                         "namespace of a bare WORKLOAD name; with --from-cluster, read only this "
                                         "namespace.")),
    "all_namespaces": (bool, typer.Option(False, "--all-namespaces", "-A", rich_help_panel=CLUSTER_PANEL,
                                          help="Every namespace (the default; files hold every namespace).")),
    "request_timeout": (str, typer.Option("30s", "--request-timeout", metavar="DURATION",
                                          rich_help_panel=CLUSTER_PANEL,
                                          help="Give up on a request after this long (30s, 2m, or seconds).")),
    "scheduler": (str, typer.Option("auto", "--scheduler", metavar="auto|kueue|yunikorn",
                                    rich_help_panel=CLUSTER_PANEL,
                                    help="Which scheduler's objects to read (auto: Kueue when the cluster "
                                         "serves kueue.x-k8s.io, else YuniKorn).")),
    "system_namespace": (str, typer.Option(None, "--system-namespace", metavar="NS", rich_help_panel=CLUSTER_PANEL,
                                           help="Where the scheduler's ConfigMaps live (default kueue-system; "
                                                "YuniKorn: yunikorn).")),
}


def cluster_options(command):
    """Give ``command`` the live-cluster options, collected into its ``cluster: ClusterArgs``
    parameter: one definition of the options for every command (Typer reads the signature)."""
    signature = inspect.signature(command, eval_str=True)
    own = [p for p in signature.parameters.values() if p.name != "cluster"]
    extra = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind)
             for name, (kind, option) in _CLUSTER_OPTIONS.items()]

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        cluster = ClusterArgs(**{name: kwargs.pop(name) for name in _CLUSTER_OPTIONS})
        return command(*args, cluster=cluster, **kwargs)

    wrapper.__signature__ = signature.replace(parameters=own + extra)
    wrapper.__annotations__ = {p.name: p.annotation for p in own + extra}
    del wrapper.__wrapped__  # Typer must read the new signature, not the command's
    return wrapper
