"""``quotactl workload`` output: the derived Workloads as a ``kind: List`` (YAML or JSON) or a
table of owner -> pod sets -> per-pod requests -> queue -> ClusterQueue.  Formatting only."""

from __future__ import annotations

import json

from quotactl.jobs import SkippedObject
from quotactl.load.objects import KubeObject
from quotactl.model.kueue import KueueCluster, build_workload
from quotactl.report.console import FIXED, ID, PLAIN_VIEW, TEXT, Col, Sheet, View, render_to_text
from quotactl.report.renderers import Outcome, register

OWNER_ANNOTATION = "quotactl.io/owner"


def document(workloads: list[KubeObject], skipped: list[SkippedObject], diagnostics) -> dict:
    """Plain data (JSON types only), so it dumps the same as YAML and JSON."""
    doc = {
        "apiVersion": "v1", "kind": "List", "version": 1,
        "items": [w.data for w in workloads],
        "skipped": [{"object": s.object, "reason": s.reason, "file": s.file, "line": s.line} for s in skipped],
        "diagnostics": [{"code": d.code, "severity": d.severity.value, "file": d.file, "line": d.line,
                         "column": d.column, "object": d.object, "field": d.field, "message": d.message}
                        for d in diagnostics],
    }
    return json.loads(json.dumps(doc, default=str))


def render_json(doc: dict) -> str:
    return json.dumps(doc, indent=2) + "\n"


def owner_of(workload: KubeObject) -> str:
    annotations = workload.metadata.get("annotations")
    if isinstance(annotations, dict) and annotations.get(OWNER_ANNOTATION):
        return str(annotations[OWNER_ANNOTATION])
    refs = [r for r in workload.metadata.get("ownerReferences") or [] if isinstance(r, dict)]
    ns = workload.namespace or "default"
    return ", ".join(f"{str(r.get('kind')).lower()}/{ns}/{r.get('name')}" for r in refs) or "-"


def render_table(workloads: list[KubeObject], skipped: list[SkippedObject], cluster: KueueCluster,
                 view: View = View(), plain: bool = False) -> str:
    """One row per pod set; ClusterQueue only when the input has LocalQueues to find it through.
    80 columns: the workload, its pod sets and queue; --wide adds the owner and the priority."""
    with_cq = bool(cluster.local_queues)
    view = PLAIN_VIEW if plain else view
    table = Sheet([Col("OWNER", ID, wide=True), Col("WORKLOAD", ID), Col("POD SET", ID), Col("COUNT", FIXED),
                   Col("PER POD", TEXT), Col("QUEUE", ID), Col("PRIORITY", FIXED, wide=True)]
                  + ([Col("CLUSTERQUEUE", ID)] if with_cq else []), view)
    for obj in workloads:
        wl = build_workload(obj)
        lq = cluster.local_queue_of(wl)
        cq = (lq.cluster_queue or "-") if lq else "(no LocalQueue)"
        for i, ps in enumerate(wl.pod_sets):
            per_pod = ", ".join(f"{k}={v.canonical()}" for k, v in sorted(ps.pod.requests.items())) or "-"
            count = f"{ps.count}" + (f" (min {ps.min_count})" if ps.min_count is not None else "")
            first = i == 0
            row = [owner_of(obj) if first else "", f"{wl.namespace}/{wl.name}" if first else "", ps.name, count,
                   per_pod, (wl.queue_name or "-") if first else "", str(wl.priority or 0) if first else ""]
            if with_cq:
                row.append(cq if first else "")
            table.add_row(*row)
    parts: list = [table]
    if skipped:
        skipped_table = Sheet([Col("OBJECT", ID), Col("REASON", TEXT, ratio=3)], view,
                              title="Skipped (Kueue creates no Workload)")
        for s in skipped:
            skipped_table.add_row(s.object, s.reason)
        parts.append(skipped_table)
    return render_to_text(parts, view=view, plain=plain)


def _render(o: Outcome, view: View, plain: bool) -> str:
    workloads, skipped, _diagnostics = o.result
    return render_table(workloads, skipped, o.context, view, plain)


register("workload", "table", lambda o, view: _render(o, view, False))
register("workload", "plain", lambda o, view: _render(o, view, True))
register("workload", "json", lambda o, view: render_json(document(*o.result)), note="a kind: List of Workloads")
