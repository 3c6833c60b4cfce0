"""``quotactl simulate --output json`` (docs/simulate.md; schema: schemas/output/simulate.json).
Pure formatting of ``simulate.result.SimulationResult``: times are seconds from t0."""

from __future__ import annotations

import json
from functools import lru_cache
from json.encoder import encode_basestring_ascii as _quoted  # json's own string escaper (ensure_ascii)

from quotactl.report.caveats import with_caveats
from quotactl.report.filter_note import filter_doc
from quotactl.report.renderers import outcome, register
from quotactl.report.topology_json import topology_assignment_dict
from quotactl.simulate.clock import rfc3339, seconds
from quotactl.simulate.result import SimulationResult, WaitStats, WorkloadRun

SCHEMA_VERSION = 1
_ROWS = "\u0000workloads\u0000"  # stands for the workloads array while the rest is indented


def _wait(w: WaitStats) -> dict:
    return {"count": w.count, "mean": w.mean, "p50": w.p50, "p95": w.p95, "max": w.max}


@lru_cache(maxsize=1 << 16)  # a run's times fall on few instants; the cache halves the rows' cost
def _number(us: int | None) -> str:
    """``seconds(us)`` as json writes it (int and float reprs)."""
    n = seconds(us)
    return "null" if n is None else repr(n)


def _text(v: str | None) -> str:
    return "null" if v is None else _quoted(v)


def _row(r: WorkloadRun, lifecycle: bool = False) -> str:
    """One workload as the line ``json.dumps`` with ``separators=(", ", ": ")`` writes (the
    only encoding of a row: 50,000 dicts through the encoder took longer than the rest of the
    report; tests/simulate/test_json_rows.py checks it against json)."""
    evictions = ", ".join(f'{{"at": {_number(e.at)}, "reason": {_quoted(e.reason)}, "by": {_text(e.by)}}}'
                          for e in r.evictions)
    return (f'{{"workload": {_quoted(r.workload)}, "clusterQueue": {_text(r.cluster_queue)}, '
            f'"class": {_text(r.klass)}, "created": {_number(r.created)}, "arrival": {_number(r.arrival)}, '
            f'"admissions": [{", ".join(_number(a) for a in r.admissions)}], "evictions": [{evictions}], '
            f'"finished": {_number(r.finished)}, "wait": {_number(r.wait)}, "runtime": {_number(r.runtime)}, '
            f'"runtimeSource": {_text(r.runtime_source)}, '
            f'"admittedInInput": {"true" if r.admitted_in_input else "false"}, "started": {_number(r.started)}, '
            f'"overdue": {"true" if r.overdue else "false"}, "lostWork": {_number(r.lost_work)}'
            f'{_lifecycle(r) if lifecycle else ""}{_topologies(r)}}}')


def _lifecycle(r: WorkloadRun) -> str:
    """``, "admittedAt": [...], "deactivated": ..., "requeueCount": n`` when the run modelled
    admission checks or waitForPodsReady (docs/simulate.md); else nothing, as before them."""
    return (f', "admittedAt": [{", ".join(_number(a) for a in r.admitted_at)}], '
            f'"deactivated": {_number(r.deactivated)}, "requeueCount": {r.requeue_count}')


def _topologies(r: WorkloadRun) -> str:
    """``, "topologyAssignments": [...]``, one per admission (pod set -> assignment, or null for an
    admission without TAS), for a workload admitted by topology in the run; else nothing."""
    if not r.topology:
        return ""
    per = [None if t is None else {ps: topology_assignment_dict(ta) for ps, ta in t.items()} for t in r.topology]
    return ', "topologyAssignments": ' + json.dumps(per, separators=(", ", ": "))


def document(r: SimulationResult) -> dict:
    """The document but its workload rows (``render`` writes them in place of ``_ROWS``)."""
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
        "workloads": _ROWS,  # rows: see render
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
    if r.shown is not None:
        doc["filter"] = filter_doc(r.shown)
    return doc


def render(r: SimulationResult, caveats: tuple = ()) -> str:
    """Indented like every document, but one line per workload: json's indenting encoder is pure
    Python, and 50,000 workloads took it seconds."""
    rows = [_row(w, r.lifecycle) for w in r.workloads]
    array = "[\n    " + ",\n    ".join(rows) + "\n  ]" if rows else "[]"
    return json.dumps(with_caveats(document(r), caveats), indent=2).replace(json.dumps(_ROWS), array, 1) + "\n"


register("simulate", "json", lambda x, view: render(outcome(x).result, outcome(x).caveats))
