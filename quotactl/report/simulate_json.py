"""``quotactl simulate --output json`` (docs/simulate.md; schema: schemas/output/simulate.json).
Pure formatting of ``simulate.result.SimulationResult``: times are seconds from t0."""

from __future__ import annotations

import json

from quotactl.report.renderers import register
from quotactl.simulate.clock import rfc3339, seconds
from quotactl.simulate.result import SimulationResult, WaitStats, WorkloadRun

SCHEMA_VERSION = 1


def _wait(w: WaitStats) -> dict:
    return {"count": w.count, "mean": w.mean, "p50": w.p50, "p95": w.p95, "max": w.max}


def _workload(r: WorkloadRun) -> dict:
    return {"workload": r.workload, "clusterQueue": r.cluster_queue, "class": r.klass,
            "created": seconds(r.created), "arrival": seconds(r.arrival),
            "admissions": [seconds(a) for a in r.admissions],
            "evictions": [{"at": seconds(e.at), "reason": e.reason, "by": e.by} for e in r.evictions],
            "finished": seconds(r.finished), "wait": seconds(r.wait),
            "runtime": seconds(r.runtime), "runtimeSource": r.runtime_source,
            "admittedInInput": r.admitted_in_input, "started": seconds(r.started), "overdue": r.overdue,
            "lostWork": seconds(r.lost_work)}


def document(r: SimulationResult) -> dict:
    doc: dict = {
        "version": SCHEMA_VERSION,
        "start": rfc3339(r.start),
        "end": seconds(r.end),
        "converged": r.converged,
        "stopped": r.stopped,
        "cycleInterval": seconds(r.cycle_interval),
        "admissionCost": seconds(r.admission_cost),
        "limits": {k: seconds(v) if k == "requeueBatch" else v for k, v in r.limits.items()},
        "cycles": r.cycles,
        "noRuntime": r.no_runtime,
        "overdue": r.overdue,
        "workloads": [_workload(w) for w in r.workloads],
        "clusterQueues": {q.name: {"admitted": q.admitted, "finished": q.finished, "preemptions": q.preemptions,
                                   "preemptionsByReason": q.preemptions_by_reason, "lostWork": seconds(q.lost_work),
                                   "wait": _wait(q.wait), "usage": q.usage, "pendingAtEnd": q.pending_at_end}
                          for q in r.cluster_queues},
        "classes": {c.name: {"workloads": c.workloads, "admitted": c.admitted, "finished": c.finished,
                             "wait": _wait(c.wait)} for c in r.classes},
        "pending": [{"workload": p.workload, "clusterQueue": p.cluster_queue, "reason": p.reason,
                     "message": p.message} for p in r.pending],
    }
    if r.livelock is not None:
        doc["livelock"] = {"workloads": list(r.livelock.workloads), "period": r.livelock.period,
                           "at": seconds(r.livelock_at), "why": list(r.livelock.why)}
    return doc


_ROWS = "\u0000workloads\u0000"  # stands for the workloads array while the rest is indented
_ROW_ENCODER = json.JSONEncoder(separators=(", ", ": "))


def render(r: SimulationResult) -> str:
    """Indented like every document, but one line per workload: json's indenting encoder is pure
    Python, and 50,000 workloads took it seconds; the C encoder writes each row."""
    doc = document(r)
    encode = _ROW_ENCODER.encode  # one encoder for all rows: json.dumps with options builds one per call
    rows = [encode(w) for w in doc["workloads"]]
    doc["workloads"] = _ROWS
    array = "[\n    " + ",\n    ".join(rows) + "\n  ]" if rows else "[]"
    return json.dumps(doc, indent=2).replace(json.dumps(_ROWS), array, 1) + "\n"


register("simulate", "json", lambda result, view: render(result))
