"""Loading the input of the engine commands (explain, preempt, shares, schedule, diff): unusable
input is exit 2 with file:line; configuration objects Kueue's API server would reject are warned
about on stderr.

A snapshot printed by ``kubectl get -o yaml`` only holds objects the API server accepted, but a
hand-written or templated config may not. The engines read what they can of such an object (an
unreadable quota counts as absent), so the answer would silently differ from a cluster, which
could never hold the object. The schema check is the same one ``quotactl lint`` runs (KQ0xx). It
runs on every configuration object, and on the Workloads whose shape the model cannot fully read
(``workload_is_malformed``): checking tens of thousands of well-formed Workloads would dominate
the run time.
"""

from __future__ import annotations

from dataclasses import replace

import typer

from quotactl.cli.common import EXIT_USAGE, fail_usage
from quotactl.diagnostics import Severity, sort_diagnostics
from quotactl.lint.placeholders import needed_placeholders
from quotactl.lint.schema import validate_object
from quotactl.load.objects import Dialect, LoadResult, load
from quotactl.load.overrides import latest
from quotactl.load.sources import UsageError, limits_from_env
from quotactl.model.features import check_gate, gate_warnings, parse_gate_list
from quotactl.model.kueue_versions import DEFAULT_RELEASE
from quotactl.model.workload_shape import workload_is_malformed

CONFIG_KINDS = frozenset({"ResourceFlavor", "ClusterQueue", "Cohort", "LocalQueue", "WorkloadPriorityClass",
                          "PriorityClass", "Configuration"})
MAX_LINES = 10
MISSPELT_KIND = "IN013"  # load.kind_typos: kubectl would refuse the object
_WARNED: set[str] = set()  # job warnings already printed by this process


def _checked(obj) -> bool:
    if obj.dialect not in (Dialect.KUEUE, Dialect.NEUTRAL):
        return False
    return obj.kind in CONFIG_KINDS or (obj.kind == "Workload" and workload_is_malformed(obj.data))


def invalid_config(loaded: LoadResult) -> list:
    """Schema errors of the Kueue configuration objects and of malformed Workloads, in input order."""
    out = []
    for obj in loaded.objects:
        if _checked(obj):
            out.extend(d for d in validate_object(obj) if d.severity == Severity.ERROR)
    return sort_diagnostics(out)


def refused_feature_gates(loaded: LoadResult, release: str) -> list[str]:
    """The Configuration's featureGates Kueue ``release`` refuses to start with, as lint's KQ820
    reports them: file:line and the reason."""
    out = []
    for obj in loaded.objects:
        gates = obj.data.get("featureGates") if obj.kind == "Configuration" and obj.dialect == Dialect.KUEUE else None
        for name, value in gates.items() if isinstance(gates, dict) else ():
            problem = check_gate(str(name), value, release) if isinstance(value, bool) else None
            if problem is not None and problem.severity == "error":
                pos = obj.ref.pos(("featureGates", name))
                out.append(f"{obj.ref.file}:{pos.line}:{pos.column}: warning KQ820 {problem.message} (Kueue refuses "
                           "to start with this Configuration; simulated without the gate)")
    return out


def warn_invalid_config(loaded: LoadResult, release: str = DEFAULT_RELEASE) -> None:
    """One stderr line per problem (at most MAX_LINES, then a count); stdout stays untouched."""
    for line in refused_feature_gates(loaded, release):
        typer.echo(line, err=True)
    problems = invalid_config(loaded)
    for d in problems[:MAX_LINES]:
        subject = d.object or "this object"
        typer.echo(f"{d.location()}: warning {d.code} {d.message} (the API server rejects {subject}; "
                   "simulated as far as it can be read)", err=True)
    if len(problems) > MAX_LINES:
        typer.echo(f"quotactl: warning: {len(problems) - MAX_LINES} more invalid field(s); "
                   "run 'quotactl lint' on the input for all of them", err=True)


def load_engine_input(files: list[str], max_file_size: str | None, feature_gates: str | None,
                      what: str | None = None, texts: tuple = (), *, release: str = DEFAULT_RELEASE,
                      replaced_by_design: str | None = None, snapshot: bool = True) -> tuple[LoadResult, dict]:
    """The loaded input, each object once (``latest_input``), and the --feature-gates overrides;
    exits 2 on unusable input or input of no or both schedulers (``require_one_scheduler``).

    ``what`` names the input in messages when a command takes several (``diff``'s --base/--head);
    ``texts`` are inputs already in memory (a cluster read with --from-cluster).
    """
    prefix = f"{what}: " if what else ""
    try:
        gates = parse_gate_list(feature_gates, release) if feature_gates else {}
    except ValueError as exc:
        fail_usage(str(exc))  # about the option, not about one of the inputs
        raise  # unreachable: fail_usage exits
    warn_gate_settings(gates, release)
    try:
        loaded = load(list(files), limits=limits_from_env(max_file_size), fast_json=True, texts=texts)
    except (UsageError, ValueError) as exc:
        fail_usage(f"{prefix}{exc}")
        raise  # unreachable: fail_usage exits
    errors = [d for d in loaded.diagnostics if d.input_error and d.severity == Severity.ERROR]
    errors += needed_placeholders(loaded)  # a documentation snippet's <placeholder> where a value is needed
    if errors:
        for d in errors[:20]:
            typer.echo(f"{d.location()}: error {d.code} {d.message}", err=True)
        raise typer.Exit(EXIT_USAGE)
    for d in loaded.diagnostics:
        if d.code == MISSPELT_KIND:  # the object is left out of the simulation: say which and why
            typer.echo(f"{d.location()}: warning {d.code} {d.message} (left out)", err=True)
    loaded = latest_input(loaded, replaced_by_design)
    require_one_scheduler(loaded, what, snapshot)
    warn_invalid_config(loaded, release)
    return loaded, gates


def latest_input(loaded: LoadResult, replaced_by_design: str | None = None) -> LoadResult:
    """The input as after ``kubectl apply`` of each input in order (``load.overrides``): one stderr
    warning per replaced object, naming both places (at most MAX_LINES, then a count), but none
    for the objects of the input ``replaced_by_design`` (the cluster ``diff --from-cluster --head``
    overlays)."""
    objects, overrides = latest(loaded.objects)
    told = [o for o in overrides if o.replaced.ref.file != replaced_by_design]
    for o in told[:MAX_LINES]:
        _warn_once(o.warning())
    if len(told) > MAX_LINES:
        _warn_once(f"quotactl: warning: {len(told) - MAX_LINES} more object(s) given again; the later of each is used")
    return replace(loaded, objects=objects) if overrides else loaded


NO_OBJECTS = "the input holds no Kueue or YuniKorn objects"
KUEUE_SNAPSHOT = "kubectl get clusterqueues,localqueues,resourceflavors,workloads -A -o yaml"
YUNIKORN_CONFIG = "kubectl get configmap yunikorn-configs -n yunikorn -o yaml"
# The kinds a Kueue answer depends on, and their kubectl resource names.
KUEUE_NEEDED = {"ClusterQueue": "clusterqueues", "LocalQueue": "localqueues", "ResourceFlavor": "resourceflavors"}


def require_one_scheduler(loaded: LoadResult, what: str | None = None, snapshot: bool = True) -> None:
    """Exit 2 unless the input is one scheduler's: configuration of both, or (``snapshot``: the
    answer comes from the input) no object at all or only Kubernetes objects (Nodes, Pods, ...)
    that either scheduler may read."""
    prefix = f"{what}: " if what else ""
    dialects = loaded.dialects
    if len(dialects) > 1:
        k, y = (next(o for o in loaded.objects if o.dialect == d) for d in (Dialect.KUEUE, Dialect.YUNIKORN))
        fail_usage(f"{prefix}the input holds configuration of both Kueue ({k.label} in {k.ref.file}) and YuniKorn "
                   f"({y.label} in {y.ref.file}): this command answers for one scheduler; give only that "
                   "scheduler's files ('quotactl lint' checks both)")
    if dialects or not snapshot or any(o.dialect == Dialect.JOB for o in loaded.objects):
        return
    if not loaded.objects:
        fail_usage(f"{prefix}{NO_OBJECTS} (an empty file or pipe? e.g. {KUEUE_SNAPSHOT} | quotactl ... -f -)")
    kinds = sorted({o.kind for o in loaded.objects})
    fail_usage(f"{prefix}the input holds {_and(kinds)} objects but no scheduler configuration: add Kueue's "
               f"({KUEUE_SNAPSHOT}) or YuniKorn's ({YUNIKORN_CONFIG})")


def require_kueue_kinds(model, what: str | None = None) -> None:
    """Exit 2 when the input (``model``: its ``KueueInput``) holds no object at all of a kind the
    Kueue answer depends on, naming the kinds and the ``kubectl get`` that fetches them. One object
    missing among others is not an input error: the engines answer as Kueue does (Misconfigured,
    FlavorNotFound)."""
    missing = missing_kueue_kinds(model)
    if missing:
        prefix = f"{what}: " if what else ""
        fail_usage(f"{prefix}the input holds no {_and(missing, 'or')} objects, which the answer depends on: add them "
                   f"(kubectl get {','.join(KUEUE_NEEDED[k] for k in missing)} -A -o yaml)")


def missing_kueue_kinds(model) -> list[str]:
    """ClusterQueue when there is none; LocalQueue when there is none and a pending Workload is
    queued through one (spec.queueName); ResourceFlavor when there is none and ClusterQueues name
    flavors (or there is no ClusterQueue either: the ones to add will)."""
    from quotactl.kueue.lookup import pending_workloads

    present = {o.kind for o in model.objects if o.dialect == Dialect.KUEUE}
    missing = [] if "ClusterQueue" in present else ["ClusterQueue"]
    if "LocalQueue" not in present:  # rare: only then are all the Workloads modelled here
        queued = model.cluster()
        if any(w.queue_name for w in pending_workloads(queued) if w.source.dialect == Dialect.KUEUE):
            missing.append("LocalQueue")
    if "ResourceFlavor" not in present:
        queues = [cq for cq in model.configuration.cluster_queues.values() if cq.source.dialect == Dialect.KUEUE]
        if not queues or any(f.name for cq in queues for rg in cq.resource_groups for f in rg.flavors):
            missing.append("ResourceFlavor")
    return missing


def _and(words: list[str], conjunction: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def warn_gate_settings(gates: dict[str, bool], release: str) -> None:
    """Kueue's start-up warnings for --feature-gates (a GA or deprecated gate set explicitly)."""
    for message in gate_warnings(gates, release):
        typer.echo(f"quotactl: warning: --feature-gates: {message}", err=True)


def warn_skipped_jobs(jobs) -> None:
    """One stderr line per job object Kueue would create no Workload for (file:line, reason), and
    per job diagnostic the skip line does not already say; once per run (``diff`` loads shared
    files twice)."""
    from quotactl.jobs.codes import MALFORMED, UNKNOWN_VERSION

    said_by_skip_line = (MALFORMED, UNKNOWN_VERSION)
    for s in jobs.skipped:
        _warn_once(f"{s.file}:{s.line}: warning: {s.object}: Kueue creates no Workload: {s.reason}")
    for d in jobs.diagnostics:
        if d.code not in said_by_skip_line:
            _warn_once(f"{d.location()}: {d.severity.value} {d.code} {d.message}")


def _warn_once(line: str) -> None:
    if line not in _WARNED:
        _WARNED.add(line)
        typer.echo(line, err=True)


def require_workload(cluster, name: str):
    """The Workload NAME (namespace/name, or a unique name) in the cluster; exits 2 with the
    candidates when the name is ambiguous and with close names when it is unknown."""
    from quotactl.kueue.lookup import find_workload

    found = find_workload(cluster, name)
    if found.workload is None:
        if found.ambiguous:
            fail_usage(f"workload name {name!r} is ambiguous: " + ", ".join(found.ambiguous)
                       + " (give namespace/name)")
        hint = f"; did you mean {', '.join(found.suggestions)}?" if found.suggestions else ""
        fail_usage(f"no workload {name!r} in the input{hint}")
    return found.workload


def job_workload(jobs, query: str) -> str:
    """The namespace/name of the Workload ``query`` names: a Workload (``ns/name``, a unique
    ``name``, ``workload/...``) or a job (``kind/namespace/name``, ``job.batch/name``, or a job's
    ``ns/name`` no Workload has); exits 2 with close names of both when it names none."""
    from quotactl.jobs.resolve import find_named

    found = find_named(jobs, query)
    if found.note:
        typer.echo(f"quotactl: note: {found.note}", err=True)
    if found.workload is not None:
        return found.workload
    if found.ambiguous:
        fail_usage(f"name {query!r} is ambiguous: " + ", ".join(found.ambiguous)
                   + " (give namespace/name, or kind/namespace/name for a job)")
    hint = f"; did you mean {', '.join(found.suggestions)}?" if found.suggestions else ""
    if found.typed_job:
        fail_usage(f"no job {query!r} with a Workload in the input{hint}")
    fail_usage(f"no workload {'or job ' if jobs.workload_of else ''}{query!r} in the input{hint}")
    raise AssertionError  # unreachable: fail_usage exits
