"""``quotactl explain``: why is this workload pending (or what does it hold), as Kueue decides."""

from __future__ import annotations

import typer

from quotactl.cli.common import (
    FairSharingOption,
    FeatureGatesOption,
    FileOption,
    MaxFileSizeOption,
    OutputFormat,
    fail_usage,
)
from quotactl.cli.engine_input import require_workload
from quotactl.cli.inputs import NO_SNAPSHOT, engine_input, finish
from quotactl.kueue.explain import explain_workload
from quotactl.kueue.lookup import pending_workloads
from quotactl.kueue.queueing import QueueIndex
from quotactl.kueue.quota import build_snapshot
from quotactl.kueue.scope import scoped_cluster
from quotactl.load.objects import Dialect
from quotactl.model.kueue import build_cluster


def explain_command(
    workload: str = typer.Argument(None, metavar="[WORKLOAD]",
                                   help="The workload: namespace/name, or name when that is unique."),
    files: list[str] = FileOption,
    all_pending: bool = typer.Option(False, "--all", help="Explain every pending workload in one table."),
    output: OutputFormat = typer.Option(OutputFormat.table, "--output", "-o", help="Output format."),
    fair_sharing: bool = FairSharingOption,
    feature_gates: str = FeatureGatesOption,
    top: int = typer.Option(5, "--top", min=1, help="How many quota holders to list per resource."),
    max_file_size: str = MaxFileSizeOption,
) -> None:
    """Explain a Kueue workload the way Kueue's scheduler decides it: flavor assignment, borrowing,
    preemption, the reason it is pending, who holds the quota and what change would admit it.

    Pipe a snapshot in: kubectl get resourceflavors,clusterqueues,cohorts,localqueues,workloads -A -o yaml
    | quotactl explain ns/name -f -

    Exit status: 0 (a pending workload is a result), 2 unknown workload or unusable input.
    """
    if not files:
        fail_usage(NO_SNAPSHOT)  # before the questions about the workload
    if workload and all_pending:
        fail_usage("give either a WORKLOAD or --all, not both")
    if not workload and not all_pending:
        fail_usage("which workload? give namespace/name (or --all for every pending workload)")
    inp = engine_input(files, max_file_size, feature_gates)
    inp.refuse_mixed()
    loaded = inp.loaded
    if Dialect.YUNIKORN in inp.dialects:
        if all_pending:
            fail_usage("--all is for Kueue workloads; for YuniKorn, explain one pod (namespace/name)")
        from quotactl.cli.yunikorn_cmds import run_explain  # the YuniKorn engine

        raise typer.Exit(run_explain(loaded, workload, output))
    cluster = None if all_pending else scoped_cluster(loaded.objects, workload)
    if cluster is None:
        cluster = build_cluster(loaded.objects)
    if not cluster.workloads and not all_pending:
        fail_usage("the input holds no Kueue Workload objects (kubectl get workloads -A -o yaml)")
    options = inp.kueue_options(cluster, fair_sharing)
    snapshot = build_snapshot(cluster, options)

    if all_pending:
        queues = QueueIndex(cluster, options)
        explanations = [explain_workload(cluster, snapshot, wl, top=top, queues=queues)
                        for wl in pending_workloads(cluster)]
        finish("explain-all", explanations, output)

    target = require_workload(cluster, workload)
    finish("explain", explain_workload(cluster, snapshot, target, top=top), output)
