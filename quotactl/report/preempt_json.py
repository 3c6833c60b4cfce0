"""``quotactl preempt --output json``: the contract of docs/preempt.md, documented by
schemas/output/preempt.json.  Pure formatting of the preemption decision model."""

from __future__ import annotations

import json

from quotactl.kueue.amounts import format_amount
from quotactl.kueue.preempt_decision import PreemptDecision, Step
from quotactl.report.caveats import with_caveats
from quotactl.report.renderers import outcome, register
from quotactl.report.topology_json import held_assignments_dict, topology_rows_dict

SCHEMA_VERSION = 1


def _assignment(d: PreemptDecision) -> dict:
    a = d.explanation.assignment
    if a is None:
        return {}
    out: dict = {}
    for ps in a.pod_sets:
        entry = {}
        for res, fa in ps.flavors.items():
            e = {"flavor": fa.flavor, "mode": fa.mode.name, "borrow": fa.borrow > 0, "borrowingLevel": fa.borrow,
                 "request": format_amount(res, ps.requests.get(res, 0))}
            if fa.preemption_mode.label in ("NoCandidates", "Preempt", "Reclaim"):
                e["preemptionMode"] = fa.preemption_mode.label
            entry[res] = e
        out[ps.name] = {"count": ps.count, "resources": entry}
    return out


def _step(s: Step) -> dict:
    out = {"action": s.action, "workload": s.workload, "clusterQueue": s.cluster_queue, "priority": s.priority,
           "admittedSince": s.admitted_since, "detail": s.detail}
    if s.reason:
        out["reason"] = s.reason
    if s.strategy:
        out["strategy"] = s.strategy
        out["preemptorShare"] = s.preemptor_share
        out["targetShare"] = s.target_share
        if s.target_share_after is not None or s.strategy == "LessThanOrEqualToFinalShare":
            out["targetShareAfter"] = s.target_share_after
    return out


def decision_dict(d: PreemptDecision) -> dict:
    e = d.explanation
    w = e.workload
    a = e.assignment
    doc: dict = {
        "version": SCHEMA_VERSION,
        "workload": w.key,
        "clusterQueue": w.cluster_queue,
        "cohortPath": list(w.cohort_path),
        "status": e.status,
        "representativeMode": d.representative_mode,
        "priority": w.priority.value,
        "fairSharing": d.fair_sharing,
        "preemptionStrategies": list(d.strategies),
        "policies": dict(d.policies),
        "assignment": _assignment(d),
        "borrowing": bool(a and a.borrows()),
        "borrowingLevel": a.borrowing if a is not None else 0,
        "assumedFlavors": [{"podSet": ps, "resource": r, "flavor": f} for ps, r, f in d.pinned],
        "flavorResourcesNeedingPreemption": [{"flavor": f, "resource": r} for f, r in d.frs_need_preemption],
        "victims": [{
            "workload": v.workload, "clusterQueue": v.cluster_queue, "path": v.path, "priority": v.priority,
            "reason": v.reason, "admittedSince": v.admitted_since, "evicted": v.evicted,
            "freed": [{"flavor": f.flavor, "resource": f.resource, "amount": format_amount(f.resource, f.amount)}
                      for f in v.freed],
            "message": v.message,
            **({"topologyAssignments": held_assignments_dict(v.topology)} if v.topology else {}),
        } for v in d.victims],
        "attempts": [{
            "allowBorrowing": at.allow_borrowing, "fits": at.fits, "steps": [_step(s) for s in at.steps],
            "shortfall": [{"flavor": s.flavor, "resource": s.resource,
                           "request": format_amount(s.resource, s.request),
                           "available": format_amount(s.resource, s.available),
                           "nominalHeadroom": format_amount(s.resource, s.nominal_headroom)
                           if s.nominal_headroom >= 0 else "-" + format_amount(s.resource, -s.nominal_headroom)}
                          for s in at.shortfall],
        } for at in d.attempts],
        "excluded": [{"why": x.why, "count": len(x.workloads), "workloads": list(x.workloads)} for x in d.excluded],
        "resultingUsage": [{
            "node": u.node, "kind": u.kind, "flavor": u.flavor, "resource": u.resource,
            "quota": format_amount(u.resource, u.quota), "usageBefore": format_amount(u.resource, u.usage_before),
            "usageAfter": format_amount(u.resource, u.usage_after),
            "availableBefore": _signed(u.resource, u.available_before),
            "availableAfterEvictions": _signed(u.resource, u.available_after),
            "borrowingAfter": u.borrowing_after,
        } for u in d.usage],
        "shares": [{"node": s.node, "kind": s.kind, "before": s.before, "after": s.after} for s in d.shares],
        "blocking": {"rule": d.blocking.rule, "message": d.blocking.message} if d.blocking else None,
        "reason": e.reason,
        "message": d.message or d.summary,
        "summary": d.summary,
    }
    if d.topology:
        doc["topology"] = topology_rows_dict(d.topology)
    return doc


def _signed(resource: str, v: int) -> str:
    return format_amount(resource, v) if v >= 0 else "-" + format_amount(resource, -v)


def render(d: PreemptDecision, caveats: tuple = ()) -> str:
    return json.dumps(with_caveats(decision_dict(d), caveats), indent=2, ensure_ascii=False) + "\n"


register("preempt", "json", lambda x, view: render(outcome(x).result, outcome(x).caveats))
