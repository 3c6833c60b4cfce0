"""``quotactl explain``: why is this workload pending (or what does it hold), as Kueue decides."""

from __future__ import annotations

import typer

from quotactl.cli.caveats import StrictOption, kueue_caveats_of, strict_code
from quotactl.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    ClusterArgs,
    FairSharingOption,
    FeatureGatesOption,
    FileOption,
    KueueVersionOption,
    MaxFileSizeOption,
    OutputFormat,
    OutputOption,
    WideOption,
    cluster_options,
    fail_usage,
    simulation_options,
)
from quotactl.cli.engine_input import require_workload
from quotactl.cli.filters import ClusterQueueOption, SelectorOption, selected, selection_of
from quotactl.cli.inputs import NO_SNAPSHOT, check_cluster_args, engine_input, finish, qualified
from quotactl.kueue.explain import ADMITTED, explain_workload
from quotactl.kueue.lookup import pending_workloads
from quotactl.kueue.queueing import QueueIndex
from quotactl.kueue.quota import build_snapshot
from quotactl.kueue.scope import scoped_cluster
from quotactl.kueue.selection import selected_pending
from quotactl.load.objects import Dialect
from quotactl.report.explain_jobs import JobAnswer
from quotactl.report.renderers import Outcome

SIM_OPTIONS = simulation_options("With --eta: ")


@cluster_options
def explain_command(
    workload: str = typer.Argument(None, metavar="WORKLOAD",
                                   help="The workload: namespace/name, or name when that is unique; or a job by "
                                        "its namespace/name, or typed as in kubectl: job/ml/train-42, "
                                        "jobs.batch/train-42, workload/ml/name."),
    files: list[str] = FileOption,
    all_pending: bool = typer.Option(False, "--all", help="Explain every pending workload in one table."),
    cluster_queues: list[str] = ClusterQueueOption,
    selector: str = SelectorOption,
    output: OutputFormat = OutputOption,
    wide: bool = WideOption,
    fair_sharing: bool = FairSharingOption,
    feature_gates: str = FeatureGatesOption,
    kueue_version: str = KueueVersionOption,
    top: int = typer.Option(5, "--top", min=1, metavar="N", help="How many quota holders to list per resource."),
    fail_if_pending: bool = typer.Option(False, "--fail-if-pending",
                                         help="With job manifests and no WORKLOAD: exit 1 when any of them "
                                              "would stay pending."),
    eta: bool = typer.Option(False, "--eta", help="Estimate when it starts: simulate from the snapshot (as 'simulate' "
                                                  "does) until it is admitted; with --all, an ETA column."),
    default_runtime: str = SIM_OPTIONS["default_runtime"],
    cycle_interval: str = SIM_OPTIONS["cycle_interval"],
    cadence: str = SIM_OPTIONS["cadence"],
    strict: bool = StrictOption,
    max_file_size: str = MaxFileSizeOption,
    cluster: ClusterArgs = ClusterArgs(),
) -> None:
    """Explain a Kueue workload the way Kueue's scheduler decides it: flavor assignment, borrowing,
    preemption, the reason it is pending, who holds the quota and what change would admit it.

    Read the cluster, or pipe a snapshot in:

    \b
      quotactl explain ns/name --from-cluster [--context NAME]
      kubectl get resourceflavors,clusterqueues,cohorts,localqueues,workloads \\
          -A -o yaml | quotactl explain ns/name -f -

    Would it be admitted? Give job manifests (Job, JobSet, RayJob, PyTorchJob, ...) with the snapshot
    and no WORKLOAD: every job with no Workload in the snapshot is explained as newly submitted
    (admitted now, after preemption, or pending and why).

    \b
      quotactl explain -f snapshot.yaml -f my-job.yaml --fail-if-pending

    Only some of them:

    \b
      quotactl explain --all -f snapshot.yaml -n team-a \\
          --cluster-queue cq-a -l app=train

    When will it start, and what will it preempt?

    \b
      quotactl explain ns/name -f snapshot.yaml --eta

    Exit status: 0 (a pending workload is a result), 1 with --fail-if-pending when a job would stay
    pending or with --strict when the input holds a feature quotactl does not model (a caveat),
    2 unknown workload or job, or unusable input.
    """
    check_cluster_args(cluster, names_workload=True)
    if not files and not cluster.from_cluster:
        fail_usage(NO_SNAPSHOT)  # before the questions about the workload
    workload = qualified(workload, cluster)
    if workload and all_pending:
        fail_usage("give either a WORKLOAD or --all, not both")
    if (cluster_queues or selector is not None) and not all_pending:
        fail_usage("--cluster-queue and -l/--selector choose among the workloads of --all")
    selection = selection_of(cluster, cluster_queues, selector)
    inp = engine_input(files, max_file_size, feature_gates, cluster=cluster, release=kueue_version)
    submitted = not workload and not all_pending and Dialect.YUNIKORN not in inp.dialects and inp.jobs.submitted
    if not workload and not all_pending and not submitted:
        fail_usage("which workload? give namespace/name (or --all for every pending workload)")
    if fail_if_pending and not submitted:
        fail_usage("--fail-if-pending is for job manifests explained without a WORKLOAD")
    sim = _eta_options(eta, submitted, default_runtime, cycle_interval, cadence)
    loaded = inp.loaded
    if Dialect.YUNIKORN in inp.dialects:
        if all_pending:
            fail_usage("--all is for Kueue workloads; for YuniKorn, explain one pod (namespace/name)")
        if sim is not None:
            fail_usage("--eta simulates Kueue's scheduler; the input holds YuniKorn objects")
        from quotactl.cli.yunikorn_cmds import run_explain  # the YuniKorn engine
        from quotactl.jobs.resolve import pod_name

        raise typer.Exit(run_explain(loaded, pod_name(workload), output, wide=wide, strict=strict))
    workload = inp.workload_name(workload) if workload else workload
    cluster = None if all_pending or submitted else scoped_cluster(inp.model, workload)
    if cluster is None:
        cluster = inp.model.cluster()
    if not cluster.workloads and workload:
        fail_usage("the input holds no Kueue Workload objects (kubectl get workloads -A -o yaml)")
    options = inp.kueue_options(cluster, fair_sharing)
    snapshot = build_snapshot(cluster, options)
    caveats = kueue_caveats_of(loaded, cluster, options)

    def report(command: str, result, code: int = EXIT_OK, context=None) -> None:
        finish(command, Outcome(result, context, caveats), output, strict_code(code, strict, caveats), wide)

    if all_pending:
        pending, shown = pending_workloads(cluster), None
        if selection:  # each selected workload is still explained against the whole input
            pending, shown = selected_pending(pending, selection, selected(cluster, selection, inp.jobs))
        queues = QueueIndex(cluster, options)
        explanations = [explain_workload(cluster, snapshot, wl, top=top, queues=queues) for wl in pending]
        if sim is not None:
            from quotactl.simulate.eta import ExplainedAll

            etas = _etas(cluster, options, sim, pending)
            report("explain-all-eta", ExplainedAll(tuple(explanations), etas, shown))
        report("explain-all", explanations, context=shown)
    if submitted:
        pairs, shown = submitted_workloads(cluster, inp.jobs), None
        if selection:  # -n: the namespace's jobs (--fail-if-pending looks at those only)
            keys = selected(cluster, selection)
            shown = selected_pending([wl for _job, wl in pairs], selection, keys)[1]
            pairs = [(job, wl) for job, wl in pairs if wl.key in keys]
        queues = QueueIndex(cluster, options)
        answers = [JobAnswer(job, explain_workload(cluster, snapshot, wl, top=top, queues=queues)) for job, wl in pairs]
        stays = fail_if_pending and any(stays_pending(a.explanation) for a in answers)
        report("explain-jobs", answers, EXIT_FINDINGS if stays else EXIT_OK, context=shown)

    target = require_workload(cluster, workload)
    explanation = explain_workload(cluster, snapshot, target, top=top)
    if sim is not None:
        full = inp.model.cluster()  # the whole cluster: every tree's arrivals and completions
        from quotactl.simulate.eta import Explained

        eta_of = _etas(full, inp.kueue_options(full, fair_sharing), sim, [full.workloads.get(target.key, target)])
        report("explain-eta", Explained(explanation, eta_of[target.key]))
    report("explain", explanation)


def _eta_options(eta: bool, submitted, default_runtime, cycle_interval, cadence):
    """--eta's simulation options (None without --eta); the runtime options need --eta."""
    from quotactl.cli.simulate import _cadence, _duration  # simulate's own option readers

    if not eta:
        if default_runtime or cycle_interval or cadence:
            fail_usage("--default-runtime, --cycle-interval and --cadence are for --eta")
        return None
    if submitted:
        fail_usage("--eta is for a WORKLOAD or --all (job manifests alone are not in the queue yet)")
    from quotactl.simulate.run import SimulationOptions

    return SimulationOptions(default_runtime=_duration("--default-runtime", default_runtime),
                             cadence=_cadence(cycle_interval, cadence, None))


def _etas(cluster, options, sim, targets) -> dict:
    from quotactl.simulate.errors import SimulationInputError
    from quotactl.simulate.eta import estimate

    try:
        return estimate(cluster, options, sim, targets)
    except SimulationInputError as exc:
        fail_usage(str(exc))
        raise  # unreachable: fail_usage exits


def submitted_workloads(cluster, jobs) -> list:
    """(job, its derived Workload) for the jobs not yet submitted, in input order; a pod group's
    members share one Workload, named by its first member."""
    keys = {}
    for ref in jobs.submitted:
        keys.setdefault(jobs.workload_of[ref], ref)
    return [(ref, cluster.workloads[k]) for k, ref in keys.items() if k in cluster.workloads]


def stays_pending(explanation) -> bool:
    """Neither admitted now (Fit) nor after preempting someone."""
    if explanation.status == ADMITTED or explanation.representative_mode == "Fit":
        return False
    preemption = explanation.preemption
    return not (explanation.representative_mode == "Preempt" and preemption is not None and preemption.possible)
