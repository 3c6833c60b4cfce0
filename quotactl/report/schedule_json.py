"""``quotactl schedule --output json`` (docs/schedule.md; schema: schemas/output/schedule.json).
Pure formatting of ``scheduler.ScheduleResult``."""

from __future__ import annotations

import json

from quotactl.kueue.afs import usage_value
from quotactl.kueue.amounts import format_amount
from quotactl.kueue.assign import TOPOLOGY_PLACEMENT_FAILED
from quotactl.kueue.scheduler import ScheduleResult
from quotactl.report.caveats import with_caveats
from quotactl.report.filter_note import filter_doc
from quotactl.report.renderers import outcome, register
from quotactl.report.topology_json import topology_assignment_dict

SCHEMA_VERSION = 1


def usage_doc(result: ScheduleResult) -> dict:
    out: dict = {"clusterQueues": {}, "cohorts": {}}
    for r in result.usage:
        bucket = out["clusterQueues" if r.kind == "ClusterQueue" else "cohorts"].setdefault(r.node, {})
        e = {"usage": format_amount(r.resource, r.usage),
             ("nominal" if r.kind == "ClusterQueue" else "subtreeQuota"): format_amount(r.resource, r.nominal)}
        if r.limit is not None:
            e["limit"] = format_amount(r.resource, r.limit)
        bucket.setdefault(r.flavor, {})[r.resource] = e
    return out


def document(result: ScheduleResult) -> dict:
    doc: dict = {
        "version": SCHEMA_VERSION,
        "cycles": result.cycles_run,
        "lastChangeCycle": result.last_change,
        "fairSharing": result.fair_sharing,
        "converged": result.converged,
        "stopped": result.stopped,
        "admitted": [{"workload": a.workload, "clusterQueue": a.cluster_queue, "cycle": a.cycle,
                      "borrowing": a.borrowing, "flavors": a.flavors, "counts": a.counts, "priority": a.priority,
                      **({"keptFlavors": True} if a.kept_flavors else {}),
                      **({"topologyAssignments": {ps: topology_assignment_dict(ta) for ps, ta in a.topology.items()}}
                         if a.topology is not None else {})}
                     for a in result.admitted],
        "preempted": [{"workload": p.workload, "clusterQueue": p.cluster_queue, "by": p.by, "reason": p.reason,
                       "cycle": p.cycle, "priority": p.priority} for p in result.preempted],
        "pending": [{"workload": p.workload, "clusterQueue": p.cluster_queue, "reason": p.reason,
                     "message": p.message, "inadmissible": p.inadmissible,
                     **({"noFitReason": p.reason} if p.reason == TOPOLOGY_PLACEMENT_FAILED else {})}
                    for p in result.pending],
        "finalAdmitted": {k: {"clusterQueue": cq, "flavors": fl} for k, (cq, fl) in result.final_admitted.items()},
        "usage": usage_doc(result),
        "cycleLog": [{"cycle": c.number,
                      "heads": [{"workload": h.workload, "clusterQueue": h.cluster_queue, "outcome": h.outcome,
                                 **({"reason": h.reason} if h.reason else {}),
                                 **({"message": h.message} if h.message else {}),
                                 **({"victims": list(h.victims)} if h.victims else {}),
                                 **({"keptFlavors": h.kept_flavors} if h.kept_flavors else {})} for h in c.heads]}
                     for c in result.cycles],
    }
    if result.livelock is not None:
        doc["livelock"] = {"workloads": list(result.livelock.workloads), "period": result.livelock.period,
                           "repeatsStateOfCycle": result.livelock.first_cycle, "why": list(result.livelock.why),
                           "trees": [{"tree": t.tree, "workloads": list(t.workloads), "period": t.period,
                                      "repeatsStateOfCycle": t.first_cycle, "why": list(t.why)}
                                     for t in result.livelock.trees]}
    if result.quotas_from_status:
        doc["effectiveQuotas"] = list(result.quotas_from_status)
    if result.local_queue_usage:
        doc["localQueueUsage"] = {name: usage_value(u) for name, u in result.local_queue_usage}
    if result.shown is not None:
        doc["filter"] = filter_doc(result.shown)
    return doc


def render(result: ScheduleResult, caveats: tuple = ()) -> str:
    return json.dumps(with_caveats(document(result), caveats), indent=2) + "\n"


register("schedule", "json", lambda x, view: render(outcome(x).result, outcome(x).caveats))
