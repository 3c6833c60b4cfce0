"""``quotactl explain``: why is this workload pending (or what does it hold), as Kueue decides."""

from __future__ import annotations

from typing import NoReturn

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
    WideOption,
    cluster_options,
    fail_usage,
    simulation_options,
)
from quotactl.cli.engine_input import require_workload
from quotactl.cli.filters import ClusterQueueOption, SelectorOption, selected, selection_of
from quotactl.cli.inputs import NO_SNAPSHOT, check_cluster_args, engine_input, finish, qualified
from quotactl.cli.output import output_option
from quotactl.kueue.explain import ADMITTED, explain_workload
from quotactl.kueue.lookup import pending_workloads
from quotactl.kueue.queue_order import QueueIndex
from quotactl.kueue.quota import build_snapshot
from quotactl.kueue.scope import scoped_cluster
from quotactl.kueue.selection import selected_pending
from quotactl.load.objects import Dialect
from quotactl.model.kueue import KueueCluster
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
    output: str = output_option("explain", "explain-all", "explain-eta", "explain-all-eta", "explain-jobs",
                                "yunikorn-explain"),
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
    _check_choice(workload, all_pending, cluster_queues, selector)
    selection = selection_of(cluster, cluster_queues, selector)
    inp = engine_input(files, max_file_size, feature_gates, cluster=cluster, release=kueue_version)
    mode = _mode(workload, all_pending, fail_if_pending, inp)
    sim = _eta_options(eta, mode, default_runtime, cycle_interval, cadence)
    if Dialect.YUNIKORN in inp.dialects:
        _explain_pod(inp, workload, mode, sim, output, wide, strict)
    workload = inp.workload_name(workload) if workload else workload
    asked = _Asked(inp, _model(inp, workload, whole=mode != ONE or sim is not None), fair_sharing, top,
                   output, wide, strict)
    if mode == ALL:
        _explain_all(asked, selection, sim)
    if mode == JOBS:
        _explain_jobs(asked, selection, fail_if_pending)
    _explain_one(asked, workload, sim)


ONE, ALL, JOBS = "workload", "all", "jobs"  # what is asked: one workload, --all, the unsubmitted jobs


def _check_choice(workload, all_pending: bool, cluster_queues, selector) -> None:
    """WORKLOAD or --all, and the filters only with --all; exits 2 (before the input is read)."""
    if workload and all_pending:
        fail_usage("give either a WORKLOAD or --all, not both")
    if (cluster_queues or selector is not None) and not all_pending:
        fail_usage("--cluster-queue and -l/--selector choose among the workloads of --all")


def _mode(workload, all_pending: bool, fail_if_pending: bool, inp) -> str:
    """ONE, ALL or JOBS: with neither WORKLOAD nor --all, the Kueue input's job manifests that are
    not submitted yet (newly submitted, each explained); exits 2 when there are none."""
    if workload:
        mode = ONE
    elif all_pending:
        mode = ALL
    elif Dialect.YUNIKORN not in inp.dialects and inp.jobs.submitted:
        mode = JOBS
    else:
        fail_usage("which workload? give namespace/name (or --all for every pending workload)")
    if fail_if_pending and mode != JOBS:
        fail_usage("--fail-if-pending is for job manifests explained without a WORKLOAD")
    return mode


def _explain_pod(inp, workload: str, mode: str, sim, output: str, wide: bool, strict: bool) -> NoReturn:
    """YuniKorn's answer for one pod."""
    if mode == ALL:
        fail_usage("--all is for Kueue workloads; for YuniKorn, explain one pod (namespace/name)")
    if sim is not None:
        fail_usage("--eta simulates Kueue's scheduler; the input holds YuniKorn objects")
    from quotactl.cli.yunikorn_cmds import run_explain  # the YuniKorn engine
    from quotactl.jobs.resolve import pod_name

    raise typer.Exit(run_explain(inp.loaded, pod_name(workload), output, wide=wide, strict=strict))


def _model(inp, workload: str | None, whole: bool) -> KueueCluster:
    """The Kueue model, built once: of the workload's cohort tree when one workload is explained
    without --eta (kueue/scope.py: the same answer, a fraction of a big snapshot), else of the
    whole input (--all and the jobs explain every tree; --eta simulates every tree's arrivals)."""
    cluster = None if whole else scoped_cluster(inp.model, workload)
    cluster = cluster if cluster is not None else inp.model.cluster()
    if workload and not cluster.workloads:
        fail_usage("the input holds no Kueue Workload objects (kubectl get workloads -A -o yaml)")
    return cluster


class _Asked:
    """The model with what every answer of one run shares: engine options, the capacity snapshot,
    the caveats, and how the report is printed."""

    def __init__(self, inp, cluster: KueueCluster, fair_sharing, top: int, output: str, wide: bool,
                 strict: bool) -> None:
        self.inp, self.cluster, self.top = inp, cluster, top
        self.options = inp.kueue_options(cluster, fair_sharing)
        self.snapshot = build_snapshot(cluster, self.options)
        self.caveats = kueue_caveats_of(inp.loaded, cluster, self.options)
        self.output, self.wide, self.strict = output, wide, strict

    def explained(self, workloads, domains: bool = True) -> list:
        """The explanation of each of ``workloads``, sharing one queue index (``domains``: see
        ``explain_workload``)."""
        queues = QueueIndex(self.cluster, self.options, self.snapshot.afs)
        return [explain_workload(self.cluster, self.snapshot, wl, top=self.top, queues=queues, domains=domains)
                for wl in workloads]

    def report(self, command: str, result, code: int = EXIT_OK, context=None) -> NoReturn:
        finish(command, Outcome(result, context, self.caveats), self.output,
               strict_code(code, self.strict, self.caveats), self.wide)


def _explain_all(asked: _Asked, selection, sim) -> NoReturn:
    """--all: every pending workload (those -n, --cluster-queue, -l select), each against the
    whole input; with --eta, an ETA column."""
    cluster = asked.cluster
    pending, shown = pending_workloads(cluster), None
    if selection:
        pending, shown = selected_pending(pending, selection, selected(cluster, selection, asked.inp.jobs))
    explanations = asked.explained(pending, domains=False)  # the table shows no topology
    if sim is not None:
        from quotactl.simulate.eta import ExplainedAll

        asked.report("explain-all-eta", ExplainedAll(tuple(explanations), _etas(asked, sim, pending), shown))
    asked.report("explain-all", explanations, context=shown)


def _explain_jobs(asked: _Asked, selection, fail_if_pending: bool) -> NoReturn:
    """The unsubmitted jobs, each explained as newly submitted; -n: the namespace's jobs only
    (--fail-if-pending looks at those only)."""
    cluster = asked.cluster
    pairs, shown = submitted_workloads(cluster, asked.inp.jobs), None
    if selection:
        keys = selected(cluster, selection)
        shown = selected_pending([wl for _job, wl in pairs], selection, keys)[1]
        pairs = [(job, wl) for job, wl in pairs if wl.key in keys]
    explanations = asked.explained([wl for _job, wl in pairs])
    answers = [JobAnswer(job, e) for (job, _wl), e in zip(pairs, explanations, strict=True)]
    stays = fail_if_pending and any(stays_pending(a.explanation) for a in answers)
    asked.report("explain-jobs", answers, EXIT_FINDINGS if stays else EXIT_OK, context=shown)


def _explain_one(asked: _Asked, workload: str, sim) -> NoReturn:
    """One workload; with --eta, when it starts (the model is then the whole input's)."""
    target = require_workload(asked.cluster, workload)
    explanation = explain_workload(asked.cluster, asked.snapshot, target, top=asked.top)
    if sim is not None:
        from quotactl.simulate.eta import Explained

        asked.report("explain-eta", Explained(explanation, _etas(asked, sim, [target])[target.key]))
    asked.report("explain", explanation)


def _eta_options(eta: bool, mode: str, default_runtime, cycle_interval, cadence):
    """--eta's simulation options (None without --eta); the runtime options need --eta."""
    if not eta:
        if default_runtime or cycle_interval or cadence:
            fail_usage("--default-runtime, --cycle-interval and --cadence are for --eta")
        return None
    if mode == JOBS:
        fail_usage("--eta is for a WORKLOAD or --all (job manifests alone are not in the queue yet)")
    from quotactl.cli.simulate import _cadence, _duration  # simulate's own option readers
    from quotactl.simulate.run import SimulationOptions

    return SimulationOptions(default_runtime=_duration("--default-runtime", default_runtime),
                             cadence=_cadence(cycle_interval, cadence, None))


def _etas(asked: _Asked, sim, targets) -> dict:
    """The estimated start of each of ``targets``, simulating the whole model; exits 2 on input the
    simulation cannot run."""
    from quotactl.simulate.errors import SimulationInputError
    from quotactl.simulate.eta import estimate

    try:
        return estimate(asked.cluster, asked.options, sim, targets)
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
