"""``quotactl schedule``: Kueue's scheduling cycles, run as the real scheduler would, to a
fixpoint (or a detected livelock) or for ``--cycles N``."""

from __future__ import annotations

import typer

from quotactl.cli.caveats import StrictOption, strict_code
from quotactl.cli.common import (
    EXIT_OK,
    ClusterArgs,
    FairSharingOption,
    FeatureGatesOption,
    FileOption,
    KueueVersionOption,
    MaxFileSizeOption,
    WideOption,
    cluster_options,
)
from quotactl.cli.filters import selected, selection_of
from quotactl.cli.inputs import check_cluster_args, finish, kueue_input
from quotactl.cli.output import output_option
from quotactl.kueue.scheduler import schedule
from quotactl.kueue.selection import restrict_schedule
from quotactl.report.renderers import Outcome


@cluster_options
def schedule_command(
    files: list[str] = FileOption,
    cycles: int = typer.Option(None, "--cycles", min=1, metavar="N", help="Run exactly N cycles (default: to the fixpoint)."),
    max_cycles: int = typer.Option(10_000, "--max-cycles", min=1, metavar="N", help="Give up after this many cycles."),
    output: str = output_option("schedule"),
    wide: bool = WideOption,
    fair_sharing: bool = FairSharingOption,
    feature_gates: str = FeatureGatesOption,
    kueue_version: str = KueueVersionOption,
    strict: bool = StrictOption,
    max_file_size: str = MaxFileSizeOption,
    cluster: ClusterArgs = ClusterArgs(),
) -> None:
    """Dry-run Kueue's scheduling cycles on a cluster snapshot: which pending workloads get
    admitted (flavors, borrowing), which admitted ones get preempted (reason, by whom), what stays
    pending and why, and the final usage of every ClusterQueue and cohort.  Stops at the fixpoint,
    or when Kueue itself would flop forever (a livelock: the same workloads preempted and
    re-admitted), or after --cycles N.

    \b
      kubectl get resourceflavors,clusterqueues,cohorts,localqueues,\\
      workloads,workloadpriorityclasses -A -o yaml | quotactl schedule -f -
      quotactl schedule --from-cluster

    -n NS reports the workloads of one namespace (every namespace's workloads are still scheduled).

    Exit status: 0 (pending workloads and livelocks are results), 1 with --strict when the input
    holds a feature quotactl does not model (a caveat), 2 unusable input.
    """
    check_cluster_args(cluster, filters=True)
    selection = selection_of(cluster)
    model, options, caveats = kueue_input(files, max_file_size, fair_sharing, feature_gates, cluster=cluster,
                                          release=kueue_version)
    result = schedule(model, options, cycles=cycles, max_cycles=max_cycles)
    if selection:
        result = restrict_schedule(result, selection, selected(model, selection))
    finish("schedule", Outcome(result, None, caveats), output, strict_code(EXIT_OK, strict, caveats), wide=wide)
