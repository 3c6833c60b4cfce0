"""``quotactl preempt``: which workloads the scheduler would preempt for a pending one, and why.

Kueue: the scheduler's own flavor assignment and target search (classical, borrowWithinCohort,
fair sharing).  YuniKorn input is handed to the YuniKorn engine (``--direct`` runs YuniKorn's
preemptor on the ask directly)."""

from __future__ import annotations

import typer

from quotactl.cli.caveats import StrictOption, kueue_caveats_of, strict_code
from quotactl.cli.common import (
    EXIT_OK,
    ClusterArgs,
    FeatureGatesOption,
    FileOption,
    KueueVersionOption,
    MaxFileSizeOption,
    WideOption,
    cluster_options,
    fail_usage,
)
from quotactl.cli.engine_input import require_workload
from quotactl.cli.inputs import check_cluster_args, engine_input, finish, qualified
from quotactl.cli.output import output_option
from quotactl.kueue.preempt_decision import check_pins, decide
from quotactl.kueue.quota import build_snapshot
from quotactl.kueue.scope import scoped_cluster
from quotactl.load.objects import Dialect
from quotactl.report.renderers import Outcome


def _parse_pins(values: list[str]) -> dict[tuple[str | None, str], str]:
    pins: dict[tuple[str | None, str], str] = {}
    for v in values:
        lhs, sep, fl = v.partition("=")
        if not sep or not lhs or not fl:
            fail_usage(f"--flavor {v!r}: expected [PODSET:]RESOURCE=FLAVOR, e.g. memory=beta or main:cpu=spot")
        ps, _, res = lhs.rpartition(":")
        pins[(ps or None, res)] = fl
    return pins


@cluster_options
def preempt_command(
    workload: str = typer.Argument(..., metavar="WORKLOAD",
                                   help="The pending workload: namespace/name, or name when that is unique "
                                        "(YuniKorn: the pod); or a job by its namespace/name, or typed as in kubectl: "
                                        "job/ml/train-42, jobs.batch/train-42, workload/ml/name."),
    files: list[str] = FileOption,
    output: str = output_option("preempt", "yunikorn-preempt"),
    wide: bool = WideOption,
    fair_sharing: bool = typer.Option(None, "--fair-sharing/--no-fair-sharing",
                                      help="Kueue: treat fair sharing as on/off (default: from the input's "
                                           "Configuration)."),
    feature_gates: str = FeatureGatesOption,
    kueue_version: str = KueueVersionOption,
    direct: bool = typer.Option(False, "--direct",
                                help="YuniKorn only: run YuniKorn's preemptor on the ask now, even if it would fit, "
                                     "with no delay, re-check interval or queue-headroom gate (\"what would the "
                                     "preemptor take?\")."),
    flavor: list[str] = typer.Option(None, "--flavor", metavar="[PODSET:]RESOURCE=FLAVOR",
                                     help="Kueue what-if: let the flavor assigner consider only this flavor for the "
                                          "resource group covering RESOURCE (repeatable), instead of Kueue's own "
                                          "choice."),
    strict: bool = StrictOption,
    max_file_size: str = MaxFileSizeOption,
    cluster: ClusterArgs = ClusterArgs(),
) -> None:
    """Show which workloads the scheduler would preempt for a pending workload, and why: the flavor
    assignment that makes preemption necessary, the victims (with the reason Kueue writes), every
    candidate considered and why it was skipped or put back, and the resulting usage.  When nothing
    can be preempted, the rule that stops it.

    \b
      kubectl get resourceflavors,clusterqueues,cohorts,localqueues,workloads \\
          -A -o yaml | quotactl preempt ns/name -f -
      quotactl preempt ns/name --from-cluster

    Exit status: 0 (no victims is a result too), 1 with --strict when the input holds a feature
    quotactl does not model (a caveat), 2 unknown workload or unusable input.
    """
    check_cluster_args(cluster, names_workload=True)
    workload = qualified(workload, cluster)
    inp = engine_input(files, max_file_size, feature_gates, cluster=cluster, release=kueue_version)
    if inp.dialects == {Dialect.YUNIKORN}:
        from quotactl.cli.yunikorn_cmds import run_preempt  # the YuniKorn engine
        from quotactl.jobs.resolve import pod_name

        raise typer.Exit(run_preempt(inp.loaded, pod_name(workload), output, direct=direct, wide=wide,
                                     strict=strict))
    if direct:
        fail_usage("--direct is for YuniKorn input; Kueue's preemption always follows the scheduler's path")
    pinned = _parse_pins(flavor or [])
    workload = inp.workload_name(workload)
    cluster = scoped_cluster(inp.model, workload) or inp.model.cluster()
    if not cluster.workloads:
        fail_usage("the input holds no Kueue Workload objects (kubectl get workloads -A -o yaml)")
    target = require_workload(cluster, workload)
    options = inp.kueue_options(cluster, fair_sharing)
    snapshot = build_snapshot(cluster, options)
    if pinned:
        problem = check_pins(snapshot, cluster.cluster_queue_name_of(target), pinned)
        if problem:
            fail_usage(f"--flavor: {problem}")
    caveats = kueue_caveats_of(inp.loaded, cluster, options)
    finish("preempt", Outcome(decide(cluster, snapshot, target, pinned), None, caveats), output,
           strict_code(EXIT_OK, strict, caveats), wide=wide)
