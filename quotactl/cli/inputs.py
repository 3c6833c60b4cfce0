"""The preamble of every command, written once: require and load the input (exit 2 when it is
unusable), check its dialect, derive Kueue's engine options, and finish with the report and the
exit code."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, NoReturn

import typer

from quotactl.cli.caveats import kueue_caveats_of
from quotactl.cli.common import EXIT_OK, ClusterArgs, UsageError, emit, fail_usage
from quotactl.cli.engine_input import (
    job_workload,
    load_engine_input,
    require_kueue_kinds,
    warn_gate_settings,
    warn_skipped_jobs,
)
from quotactl.load.objects import Dialect, LoadResult, load
from quotactl.load.sources import Source, limits_from_env
from quotactl.model.features import parse_gate_list
from quotactl.model.kueue_versions import DEFAULT_RELEASE

if TYPE_CHECKING:  # the engine commands import these when they run; lint and --help do not need them
    from quotactl.jobs.resolve import ResolvedJobs
    from quotactl.kueue.options import EngineOptions
    from quotactl.model.kueue import BuildMemo, KueueCluster
    from quotactl.model.kueue_input import KueueInput

NO_SNAPSHOT = "no input: give the cluster snapshot with -f FILE (or -f - for stdin), or read it with --from-cluster"


def _no_jobs() -> ResolvedJobs:
    from quotactl.jobs.resolve import ResolvedJobs

    return ResolvedJobs([])


@dataclass(frozen=True)
class EngineInput:
    """A loaded cluster snapshot (job objects resolved to their Workloads), its Kueue model (built
    once, on first use: ``model.cluster()``, or one tree of it with ``kueue.scope.scoped_cluster``)
    and the --feature-gates overrides."""

    loaded: LoadResult
    gates: dict
    jobs: ResolvedJobs = field(default_factory=_no_jobs)
    release: str = DEFAULT_RELEASE  # --kueue-version
    model: KueueInput | None = None  # None for YuniKorn input

    @property
    def dialects(self) -> set[str]:
        return self.loaded.dialects

    def workload_name(self, query: str) -> str:
        """The Workload a WORKLOAD argument names: itself, or the Workload of the job it names."""
        return job_workload(self.jobs, query)

    def kueue_options(self, cluster: KueueCluster, fair_sharing: bool | None) -> EngineOptions:
        """Kueue's engine options: the command line over the input's Configuration."""
        from quotactl.kueue.afs import AfsConfigError
        from quotactl.kueue.options import admission_check_states, engine_options

        try:
            return engine_options(cluster, fair_sharing=fair_sharing, feature_gates=self.gates,
                                  admission_checks=admission_check_states(self.loaded.objects), release=self.release)
        except AfsConfigError as exc:
            fail_usage(str(exc))
            raise  # unreachable: fail_usage exits


def engine_input(files: list[str] | None, max_file_size: str | None, feature_gates: str | None,
                 what: str | None = None, cluster: ClusterArgs | None = None, overlay: bool = False, *,
                 release: str = DEFAULT_RELEASE, snapshot: bool = True, memo: BuildMemo | None = None) -> EngineInput:
    """The snapshot of an engine command (explain, preempt, shares, schedule, simulate, diff): the
    files and, with --from-cluster, the cluster before them; an object given again replaces the
    earlier one (``kubectl apply`` order). Exits 2 when there is none, it is unusable, it holds
    both schedulers' configuration, or (``snapshot``: the answer comes from it) it lacks a kind
    the answer depends on. ``overlay``: the files replace the cluster's objects by design
    (``diff``'s proposed side), without a warning each. ``memo``: the models another input of
    this run built (``diff``'s other side)."""
    texts = cluster_sources(cluster)
    if not files and not texts:
        fail_usage(NO_SNAPSHOT)
    loaded, gates = load_engine_input(list(files or []), max_file_size, feature_gates, what, texts, release=release,
                                      replaced_by_design=texts[0].name if overlay and texts else None,
                                      snapshot=snapshot)
    if Dialect.YUNIKORN in loaded.dialects:
        return EngineInput(loaded, gates, release=release)  # YuniKorn schedules pods itself
    from quotactl.jobs.resolve import resolve_jobs
    from quotactl.model.kueue_input import KueueInput

    model = KueueInput(loaded.objects, memo)
    jobs = resolve_jobs(model)
    warn_skipped_jobs(jobs)
    if snapshot:
        require_kueue_kinds(model, what)
    return EngineInput(replace(loaded, objects=jobs.objects), gates, jobs, release, model)


def kueue_input(files: list[str], max_file_size: str | None, fair_sharing: bool | None, feature_gates: str | None,
                what: str | None = None, cluster: ClusterArgs | None = None,
                overlay: bool = False, *, release: str = DEFAULT_RELEASE,
                memo: BuildMemo | None = None) -> tuple[KueueCluster, EngineOptions, tuple]:
    """A Kueue-only snapshot (schedule, diff): its cluster, engine options and caveats."""
    inp = engine_input(files, max_file_size, feature_gates, what, cluster, overlay, release=release, memo=memo)
    if inp.dialects and inp.dialects != {Dialect.KUEUE}:
        fail_usage(f"{what + ': ' if what else ''}schedule and diff simulate Kueue; the input holds YuniKorn objects")
    cluster_model = inp.model.cluster()
    options = inp.kueue_options(cluster_model, fair_sharing)
    return cluster_model, options, kueue_caveats_of(inp.loaded, cluster_model, options)


def config_input(paths: list[str], max_file_size: str | None, feature_gates: str | None = None,
                 cluster: ClusterArgs | None = None, release: str = DEFAULT_RELEASE,
                 skip=None) -> tuple[LoadResult, dict]:
    """The files of ``lint`` / ``queues`` / ``workload`` (and the cluster with --from-cluster),
    whose input problems are findings, not usage errors; exits 2 only when the input cannot be
    read or an option is malformed. ``skip``: files of a directory walk to leave out (--exclude)."""
    texts = cluster_sources(cluster)
    try:
        gates = parse_gate_list(feature_gates, release) if feature_gates else {}
        warn_gate_settings(gates, release)
        loaded = load(paths, limits=limits_from_env(max_file_size), texts=texts, skip=skip)
    except (UsageError, ValueError) as exc:
        fail_usage(str(exc))
        raise  # unreachable: fail_usage exits
    return loaded, gates


_READ: dict[ClusterArgs, object] = {}  # the cluster read by this run (diff loads it twice)


def cluster_sources(cluster: ClusterArgs | None) -> tuple[Source, ...]:
    """With --from-cluster, the cluster as an in-memory JSON snapshot (exactly what
    ``quotactl snapshot -o json`` writes), read once per run; exits 2 when it cannot be read."""
    if cluster is None or not cluster.from_cluster:
        return ()
    snap = read_cluster_once(cluster)
    return (Source(snap.name, snap.render("json")),)


def _report_progress(what: str, count: int) -> None:
    """A long list (a big cluster's Nodes or Pods) says how far it got, so the wait is not silent."""
    typer.echo(f"quotactl: reading {what}: {count:,} so far", err=True)


def read_cluster_once(cluster: ClusterArgs):
    """The cluster snapshot; warnings (skipped lists, namespace scope) on stderr once."""
    if cluster not in _READ:
        from quotactl.live.client import LiveError
        from quotactl.live.snapshot import read_cluster

        try:
            snap = read_cluster(cluster_request(cluster), _report_progress)
        except LiveError as exc:
            fail_usage(str(exc))
            raise  # unreachable: fail_usage exits
        for what in snap.skipped:
            typer.echo(f"quotactl: warning: no permission to list {what}; skipped: the answers leave "
                       "these objects out", err=True)
        if cluster.namespace and snap.scheduler == "kueue":
            typer.echo(f"quotactl: warning: read namespace {cluster.namespace} only: quota that Workloads "
                       "of other namespaces hold is not counted", err=True)
        _READ[cluster] = snap
    return _READ[cluster]


def cluster_request(cluster: ClusterArgs):
    """The live layer's request for the command-line options; exits 2 on a malformed one."""
    from quotactl.live.client import Target
    from quotactl.live.fetch import Scope
    from quotactl.live.snapshot import SCHEDULERS, Request

    if cluster.scheduler not in SCHEDULERS:
        fail_usage(f"--scheduler {cluster.scheduler!r}: use auto, kueue or yunikorn")
    target = Target(cluster.kubeconfig, cluster.context, parse_timeout(cluster.request_timeout))
    scope = Scope((cluster.namespace,) if cluster.namespace else None)
    return Request(target, scope, cluster.scheduler, cluster.system_namespace)


def parse_timeout(text: str) -> float:
    """kubectl's --request-timeout: seconds, or a number with s / m / h."""
    value = text.strip().lower()
    scale = {"s": 1, "m": 60, "h": 3600}.get(value[-1:], None)
    try:
        seconds = float(value[:-1] if scale else value) * (scale or 1)
    except ValueError:
        seconds = -1
    if seconds <= 0:
        fail_usage(f"--request-timeout {text!r}: give a positive duration (e.g. 30s, 2m)")
    return seconds


def check_cluster_args(cluster: ClusterArgs, names_workload: bool = False, filters: bool = False) -> None:
    """Options that only mean something with --from-cluster, and -n with -A; exits 2. ``-A`` is
    what files give anyway; ``-n`` means something on files to a command that qualifies a bare
    WORKLOAD name with it (``names_workload``) or filters its report by it (``filters``)."""
    if cluster.namespace and cluster.all_namespaces:
        fail_usage("give either -n/--namespace or -A/--all-namespaces, not both")
    if cluster.from_cluster:
        return
    given = [name for name, on in (("--context", cluster.context), ("--kubeconfig", cluster.kubeconfig),
                                   ("--scheduler", cluster.scheduler != "auto"),
                                   ("--system-namespace", cluster.system_namespace),
                                   ("--request-timeout", cluster.request_timeout != "30s"),
                                   ("-n/--namespace", cluster.namespace and not (names_workload or filters))) if on]
    if given:
        fail_usage(f"{given[0]} is for reading a cluster: add --from-cluster")


def qualified(name: str | None, cluster: ClusterArgs) -> str | None:
    """A bare WORKLOAD name in the namespace of -n (``name`` -> ``ns/name``, ``job/name`` ->
    ``job/ns/name``)."""
    if not name or not cluster.namespace:
        return name
    from quotactl.jobs.resolve import typed_name

    _kind, rest = typed_name(name)
    return name if "/" in rest else f"{name[:len(name) - len(rest)]}{cluster.namespace}/{rest}"


def finish(command: str, result: object, output: str, code: int = EXIT_OK, wide: bool = False) -> NoReturn:
    """Write the report (``wide``: the --wide view) and exit with ``code``."""
    emit(command, result, output, wide)
    raise typer.Exit(code)
