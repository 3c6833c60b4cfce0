"""``quotactl schedule``: Kueue's scheduling cycles, run as the real scheduler would, to a
fixpoint (or a detected livelock) or for ``--cycles N``."""

from __future__ import annotations

import typer

from quotactl.cli.common import (
    EXIT_OK,
    FileOption,
    MaxFileSizeOption,
    OutputFormat,
    emit,
    fail_usage,
)
from quotactl.cli.engine_input import load_engine_input
from quotactl.kueue.cycle import schedule
from quotactl.kueue.options import admission_check_states, engine_options
from quotactl.load.objects import Dialect
from quotactl.model.kueue import KueueCluster, build_cluster
from quotactl.report import schedule_json, schedule_text


def load_kueue(files: list[str], max_file_size: str | None, fair_sharing: bool | None, feature_gates: str | None,
               what: str = "input"):
    """Load a Kueue input and its engine options (exits 2 on unusable input)."""
    loaded, gates = load_engine_input(files, max_file_size, feature_gates, what)
    if loaded.dialects and loaded.dialects != {Dialect.KUEUE}:
        fail_usage(f"{what}: schedule and diff simulate Kueue; the input holds YuniKorn objects")
    cluster: KueueCluster = build_cluster(loaded.objects)
    options = engine_options(cluster, fair_sharing=fair_sharing, feature_gates=gates,
                             admission_checks=admission_check_states(loaded.objects))
    return loaded, cluster, options


def schedule_command(
    files: list[str] = FileOption,
    cycles: int = typer.Option(None, "--cycles", "-n", min=1, help="Run exactly N cycles (default: to the fixpoint)."),
    max_cycles: int = typer.Option(10_000, "--max-cycles", min=1, help="Give up after this many cycles."),
    output: OutputFormat = typer.Option(OutputFormat.table, "--output", "-o", help="Output format."),
    fair_sharing: bool = typer.Option(None, "--fair-sharing/--no-fair-sharing",
                                      help="Treat fair sharing as on/off (default: from the input's Configuration)."),
    feature_gates: str = typer.Option(None, "--feature-gates", metavar="A=true,B=false",
                                      help="Kueue feature gates (override the input's Configuration)."),
    max_file_size: str = MaxFileSizeOption,
) -> None:
    """Dry-run Kueue's scheduling cycles on a cluster snapshot: which pending workloads get
    admitted (flavors, borrowing), which admitted ones get preempted (reason, by whom), what stays
    pending and why, and the final usage of every ClusterQueue and cohort.  Stops at the fixpoint,
    or when Kueue itself would flop forever (a livelock: the same workloads preempted and
    re-admitted), or after --cycles N.

    kubectl get resourceflavors,clusterqueues,cohorts,localqueues,workloads,workloadpriorityclasses -A -o yaml
    | quotactl schedule -f -

    Exit status: 0 (pending workloads and livelocks are results), 2 unusable input.
    """
    if not files:
        fail_usage("no input: give the cluster snapshot with -f FILE (or -f - for stdin)")
    _loaded, cluster, options = load_kueue(files, max_file_size, fair_sharing, feature_gates)
    result = schedule(cluster, options, cycles=cycles, max_cycles=max_cycles)
    emit(output, lambda: schedule_json.render(result),
         lambda color: schedule_text.render_table(result, color=color),
         lambda: schedule_text.render_plain(result))
    raise typer.Exit(EXIT_OK)
