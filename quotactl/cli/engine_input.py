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

import typer

from quotactl.cli.common import EXIT_USAGE, fail_usage
from quotactl.diagnostics import Severity, sort_diagnostics
from quotactl.lint.placeholders import needed_placeholders
from quotactl.lint.schema import validate_object
from quotactl.load.objects import Dialect, LoadResult, load
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
                      what: str | None = None, texts: tuple = (), *, release: str = DEFAULT_RELEASE
                      ) -> tuple[LoadResult, dict]:
    """The loaded input and the --feature-gates overrides; exits 2 on unusable input.

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
    warn_invalid_config(loaded, release)
    return loaded, gates


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
    """``query`` itself, or the namespace/name of the Workload of the job it names
    (``kind/namespace/name`` or ``kind/name``); exits 2 with close names for an unknown job."""
    from quotactl.jobs.resolve import find_job

    found = find_job(jobs, query)
    if not found.is_job:
        return query
    if found.workload is not None:
        return found.workload
    if found.ambiguous:
        fail_usage(f"job name {query!r} is ambiguous: " + ", ".join(found.ambiguous) + " (give kind/namespace/name)")
    hint = f"; did you mean {', '.join(found.suggestions)}?" if found.suggestions else ""
    fail_usage(f"no job {query!r} with a Workload in the input{hint}")
    raise AssertionError  # unreachable: fail_usage exits
