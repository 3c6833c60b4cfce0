"""A generator scenario's objects as input objects: they enter the model exactly as loaded ones
do (``model.kueue.build_cluster``), each positioned at the start of the generator file.  A
generated Workload is created at ``t0 + arrival`` (its creationTimestamp, so its queue order is
its arrival order)."""

from __future__ import annotations

from datetime import datetime

from quotactl.load.document import Document, ObjectRef
from quotactl.load.objects import Dialect, KubeObject, classify
from quotactl.model.gc_pause import fewer_gc_pauses
from quotactl.simulate.clock import US, at, rfc3339


def generated_objects(scenario, t0: datetime) -> list[KubeObject]:
    """``scenario``: a ``generator.GeneratedScenario`` (source, objects, workloads with
    ``manifest`` and ``arrival`` in seconds after t0)."""
    with fewer_gc_pauses():  # tens of thousands of fresh dicts, no cycles
        return _generated_objects(scenario, t0)


def _generated_objects(scenario, t0: datetime) -> list[KubeObject]:
    out = [_object(scenario.source, i, data) for i, data in enumerate(scenario.objects)]
    base = len(out)
    stamps: dict[float, str] = {}  # arrival -> creationTimestamp: every ClusterQueue's senders share one grid
    kinds: dict = {}
    for i, gw in enumerate(scenario.workloads):
        stamp = stamps.get(gw.arrival)
        if stamp is None:
            stamp = stamps[gw.arrival] = rfc3339(at(t0, round(gw.arrival * US)))
        # a new top level and metadata only: the rest is shared with the scenario, never written
        manifest = gw.manifest
        data = {**manifest, "metadata": {**(manifest.get("metadata") or {}), "creationTimestamp": stamp}}
        out.append(_object(scenario.source, base + i, data, kinds))
    return [o for o in out if o is not None]


def _object(source: str, index: int, data: dict, kinds: dict | None = None) -> KubeObject | None:
    """``kinds``: (apiVersion, kind) -> dialect, for the Workloads (``classify`` reads nothing
    else of a Kueue kind, and a generator makes no other kind of object by the thousand)."""
    api_version, kind = data.get("apiVersion", ""), data.get("kind", "")
    if kinds is not None and (api_version, kind) in kinds:
        dialect = kinds[(api_version, kind)]
    else:
        dialect = classify(api_version, kind, data)
        if kinds is not None and dialect == Dialect.KUEUE:
            kinds[(api_version, kind)] = dialect
    if dialect is None:
        return None
    return KubeObject(api_version, kind, data, ObjectRef(Document(source, index, data)), dialect)
