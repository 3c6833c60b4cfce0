"""The YuniKorn side of ``quotactl explain`` and ``quotactl preempt`` (and the live numbers of
``quotactl queues``): wiring only — build the cluster from the loaded objects, call the engine,
print a renderer's output, return the exit code.

``run_explain`` / ``run_preempt`` are called by the top-level commands once the input's dialect is
known to be YuniKorn; they print and return 0 for any result (a pending pod is a result) and 2 for
an unknown pod (with close names) or unusable input.
"""

from __future__ import annotations

from dataclasses import dataclass

import typer

from quotactl.cli.caveats import strict_code
from quotactl.cli.common import EXIT_OK, EXIT_USAGE, emit
from quotactl.cli.engine_input import MAX_LINES, YUNIKORN_CONFIG
from quotactl.load.objects import Dialect, LoadResult
from quotactl.load.yunikorn import CONFIG_KINDS, YuniKornInput, load_inputs
from quotactl.model.yunikorn_cluster import ClusterObjects, build_objects
from quotactl.report.renderers import Outcome
from quotactl.yunikorn.caveats import yunikorn_caveats
from quotactl.yunikorn.cluster import Cluster
from quotactl.yunikorn.explain import Explanation, explain_pod, find_pod
from quotactl.yunikorn.live import LiveState, live_state
from quotactl.yunikorn.shim import build_cluster, select_partition


@dataclass
class Built:
    cluster: Cluster | None
    error: str | None = None
    caveats: tuple = ()  # the input's caveats (yunikorn/caveats.py)


def cluster_objects(loaded: LoadResult) -> ClusterObjects:
    """The typed Pods / Nodes / PriorityClasses of the input; one stderr line per malformed
    object left out (at most MAX_LINES, then a count), stdout stays untouched."""
    objects = build_objects(loaded.objects)
    for m in objects.malformed[:MAX_LINES]:
        typer.echo(f"{m.location()}: warning {m.display}: {m.field} {m.problem} (the API server rejects it; "
                   "left out of the simulation)", err=True)
    if len(objects.malformed) > MAX_LINES:
        typer.echo(f"quotactl: warning: {len(objects.malformed) - MAX_LINES} more malformed object(s) "
                   "left out of the simulation", err=True)
    return objects


def _config_inputs(loaded: LoadResult) -> list[YuniKornInput]:
    objs = [o for o in loaded.objects if o.dialect == Dialect.YUNIKORN and o.kind in CONFIG_KINDS]
    return load_inputs(objs)


def build(loaded: LoadResult) -> Built:
    """The cluster of the input: its YuniKorn config and its Nodes / Pods / PriorityClasses."""
    from quotactl.lint.rules.yunikorn.validator import rejection

    notes: list[str] = []
    inputs = _config_inputs(loaded)
    if not inputs:  # Nodes and Pods alone are no scheduler's input (cli.engine_input.require_one_scheduler)
        return Built(None, f"the input holds no YuniKorn configuration ({YUNIKORN_CONFIG})")
    inp = inputs[0]
    if len(inputs) > 1:
        notes.append(f"the input holds {len(inputs)} YuniKorn configs; using {inp.origin} ({inp.file})")
    first = rejection(inp)
    if first is not None:
        notes.append(f"YuniKorn would reject this config ({first.message}); evaluated as written anyway "
                     "(run quotactl lint for every problem)")
    partition = select_partition(inp.config)
    if partition is None:
        return Built(None, f"{inp.origin} ({inp.file}) has no partition")
    if not any(o.kind == "Pod" for o in loaded.objects):
        return Built(None, "the input holds no Pod objects (kubectl get nodes,pods -A -o yaml)")
    objects = cluster_objects(loaded)
    cluster = build_cluster(partition, objects)
    if notes:
        from dataclasses import replace

        cluster = replace(cluster, notes=tuple(notes) + cluster.notes)
    return Built(cluster, caveats=yunikorn_caveats(objects))


def _error(message: str) -> int:
    typer.echo(f"quotactl: error: {message}", err=True)
    return EXIT_USAGE


def _explanation(loaded: LoadResult, pod: str | None, direct: bool) -> tuple[Explanation | None, int, tuple]:
    """The explanation (None on an error, with exit code 2) and the input's caveats."""
    if not pod:
        return None, _error("which pod? give namespace/name"), ()
    built = build(loaded)
    if built.cluster is None:
        return None, _error(built.error or "unusable input"), ()
    found = find_pod(built.cluster, pod)
    if found.task is None:
        if found.ignored:
            return None, _error(f"pod {pod!r} is not a YuniKorn ask: {found.ignored}"), ()
        if found.ambiguous:
            return None, _error(f"pod name {pod!r} is ambiguous: {', '.join(found.ambiguous)} "
                                "(give namespace/name)"), ()
        hint = f"; did you mean {', '.join(found.suggestions)}?" if found.suggestions else ""
        return None, _error(f"no pod {pod!r} in the input{hint}"), ()
    return explain_pod(built.cluster, found.task, direct=direct), EXIT_OK, built.caveats


def run_explain(loaded: LoadResult, pod: str, output: str, wide: bool = False, strict: bool = False,
                **opts) -> int:
    """``quotactl explain POD`` for YuniKorn: why the pod is pending (or what it holds)."""
    return _report("yunikorn-explain", loaded, pod, output, bool(opts.get("direct", False)), wide, strict)


def run_preempt(loaded: LoadResult, pod: str, output: str, direct: bool = False, wide: bool = False,
                strict: bool = False, **opts) -> int:
    """``quotactl preempt POD [--direct]`` for YuniKorn: what YuniKorn would preempt for the pod."""
    return _report("yunikorn-preempt", loaded, pod, output, direct, wide, strict)


def _report(command: str, loaded: LoadResult, pod: str, output: str, direct: bool, wide: bool,
            strict: bool) -> int:
    e, code, caveats = _explanation(loaded, pod, direct)
    if e is None:
        return code
    emit(command, Outcome(e, direct, caveats), output, wide)
    return strict_code(EXIT_OK, strict, caveats)


def live_states(loaded: LoadResult, inputs: list[YuniKornInput]) -> list[LiveState | None]:
    """Per config of ``quotactl queues``: its live state when the input also holds Pods (or Nodes)."""
    if not any(o.kind in ("Pod", "Node") for o in loaded.objects):
        return [None] * len(inputs)
    objects = cluster_objects(loaded)
    out: list[LiveState | None] = []
    for inp in inputs:
        partition = select_partition(inp.config)
        out.append(live_state(build_cluster(partition, objects)) if partition is not None else None)
    return out


__all__ = ["run_explain", "run_preempt", "build", "live_states"]
