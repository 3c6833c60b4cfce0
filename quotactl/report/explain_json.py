"""``quotactl explain --output json``: the contract of docs/explain.md, documented by
schemas/output/explain.json.  Pure formatting of the explanation model."""

from __future__ import annotations

import json

from quotactl.kueue.afs import usage_value
from quotactl.kueue.amounts import format_amount
from quotactl.kueue.assign import Assignment, FlavorAttempt, Mode, PodSetAssignment
from quotactl.kueue.counterfactual import Change
from quotactl.kueue.explain import ADMITTED, Explanation, Holders, Holding, PreemptionVerdict
from quotactl.kueue.quota import QuotaView
from quotactl.kueue.selection import Shown
from quotactl.report.caveats import with_caveats
from quotactl.report.filter_note import filter_doc, unpacked
from quotactl.report.renderers import outcome, register
from quotactl.report.topology_json import topology_rows_dict

SCHEMA_VERSION = 1


def _attempt(att: FlavorAttempt, resource: str) -> dict:
    reason = att.eligibility
    if reason is None:
        reason = next((c.reason for c in att.checks if c.resource == resource and c.reason), None)
    out = {"flavor": att.flavor, "mode": att.mode.name, "reason": reason}
    if att.preemption_possibility:
        out["preemptionMode"] = att.preemption_possibility
    if att.borrow:
        out["borrow"] = att.borrow
    if att.reasons:
        out["reasons"] = list(att.reasons)
    return out


def _pod_set(ps: PodSetAssignment) -> dict:
    out = {}
    resources = [r for r in ps.requests if r in ps.flavors or ps.representative_mode == Mode.NoFit]
    for res in resources:
        if res not in ps.flavors and ps.requests.get(res, 0) == 0 and res not in ps.uncovered:
            continue
        fa = ps.flavors.get(res)
        attempts = [_attempt(a, res) for a in ps.attempts_for(res)]
        if fa is None or ps.representative_mode == Mode.NoFit and not ps.flavors:
            entry = {"flavor": None, "mode": "NoFit", "borrow": None}
        else:
            entry = {"flavor": fa.flavor, "mode": fa.mode.name, "borrow": fa.borrow > 0, "borrowingLevel": fa.borrow}
            if fa.preemption_mode.label in ("NoCandidates", "Preempt", "Reclaim"):
                entry["preemptionMode"] = fa.preemption_mode.label
        entry["request"] = format_amount(res, ps.requests.get(res, 0))
        entry["attempts"] = attempts
        out[res] = entry
    return out


def _assignment(a: Assignment) -> dict:
    return {ps.name: _pod_set(ps) for ps in a.pod_sets}


def explanation_dict(e: Explanation) -> dict:
    doc = _header(e)
    if e.status == ADMITTED:
        doc["podSets"] = _holdings(e.holdings)
    elif e.assignment is not None:
        doc.update(_assignment_fields(e))
    elif e.blocker is not None:
        doc["messages"] = [e.blocker.message]
    if e.blocker is not None:
        doc["blocker"] = {"reason": e.blocker.reason, "message": e.blocker.message, "detail": e.blocker.detail,
                          "fix": e.blocker.fix}
    if e.cluster_queue_inactive is not None:
        doc["clusterQueueInactive"] = {"reason": e.cluster_queue_inactive.reason,
                                       "message": e.cluster_queue_inactive.message}
    if e.preemption is not None:
        doc["preemption"] = _preemption(e.preemption)
    if e.holders:
        doc["holders"] = [_holders(h) for h in e.holders]
    if e.changes:
        doc["changes"] = [_change(c) for c in e.changes]
    if e.quota_tree:
        doc["quotaTree"] = [_quota_view(v) for v in e.quota_tree]
    if e.ahead:
        doc["aheadInQueue"] = list(e.ahead)
    if e.local_queue_usage:
        doc["localQueueUsage"] = {name: usage_value(u) for name, u in e.local_queue_usage}
    if e.topology:
        doc["topology"] = topology_rows_dict(e.topology)
    doc["notes"] = list(e.notes)
    w = e.workload
    if w.condition_reason or w.condition_message:
        doc["currentCondition"] = {"reason": w.condition_reason, "message": w.condition_message}
    return doc


def _header(e: Explanation) -> dict:
    """The fields every explanation has (podSets and messages filled in afterwards)."""
    w = e.workload
    return {
        "version": SCHEMA_VERSION,
        "workload": w.key,
        "clusterQueue": w.cluster_queue,
        "localQueue": w.queue_name,
        "cohortPath": list(w.cohort_path),
        "status": e.status,
        "representativeMode": e.representative_mode,
        "podSets": {},
        "messages": [],
        "message": e.message,
        "reason": e.reason,
        "conditionReason": e.condition_reason,
        "verdict": e.verdict,
        "borrowing": e.borrows,
        "priority": {"value": w.priority.value, "source": w.priority.source, "className": w.priority.class_name,
                     **({"note": w.priority.note} if w.priority.note else {})},
        "fairSharing": e.fair_sharing,
    }


def _holdings(holdings: tuple[Holding, ...]) -> dict:
    """An admitted workload's pod sets: what it holds per resource."""
    out: dict = {}
    for h in holdings:
        out.setdefault(h.pod_set, {})[h.resource] = {
            "flavor": h.flavor, "mode": "Fit", "borrow": h.borrowing,
            "amount": format_amount(h.resource, h.amount),
            "clusterQueueUsage": format_amount(h.resource, h.cq_usage),
            "nominal": format_amount(h.resource, h.nominal)}
    return out


def _assignment_fields(e: Explanation) -> dict:
    """A pending workload's flavor assignment (and the full size's, under partial admission)."""
    a = e.assignment
    out: dict = {
        "podSets": _assignment(a),
        "messages": [f"couldn't assign flavors to pod set {ps.name}: {ps.status_message()}"
                     if ps.error is None else f"failed to assign flavors to pod set {ps.name}: {ps.error}"
                     for ps in a.pod_sets if not ps.is_fit],
        "borrowingLevel": a.borrowing,
    }
    if a.not_evaluated:
        out["notEvaluated"] = list(a.not_evaluated)
    if a.no_fit_reason:
        out["noFitReason"] = a.no_fit_reason
    if e.full_assignment is not None:
        out["partialAdmission"] = {
            "counts": {ps.name: ps.count for ps in a.pod_sets},
            "fullSize": {"representativeMode": e.full_assignment.representative_mode.name,
                         "message": e.full_assignment.message(), "podSets": _assignment(e.full_assignment)},
        }
    return out


def _preemption(p: PreemptionVerdict) -> dict:
    return {
        "needed": p.needed, "possible": p.possible, "summary": p.summary, "policies": dict(p.policies),
        "victims": [{"workload": v.workload, "clusterQueue": v.cluster_queue, "reason": v.reason,
                     "priority": v.priority} for v in p.victims],
    }


def _holders(h: Holders) -> dict:
    return {
        "flavor": h.flavor, "resource": h.resource,
        "clusterQueueTotal": format_amount(h.resource, h.cluster_queue_total),
        "cohortTotal": format_amount(h.resource, h.cohort_total),
        "inClusterQueue": [_holder(x, h.resource) for x in h.in_cluster_queue],
        "inCohort": [_holder(x, h.resource) for x in h.in_cohort],
    }


def _change(c: Change) -> dict:
    """A suggested change; fields without a value are left out."""
    fields = {
        "kind": c.kind, "description": c.description, "verified": c.verified, "object": c.object,
        "flavor": c.flavor, "resource": c.resource,
        "current": format_amount(c.resource, c.current) if c.resource and c.current is not None else c.current,
        "proposed": format_amount(c.resource, c.proposed) if c.resource and c.proposed is not None else c.proposed,
        "adjustments": [{"object": a.object, "field": a.field, "flavor": a.flavor, "resource": a.resource,
                         "current": None if a.current is None else format_amount(a.resource, a.current),
                         "proposed": format_amount(a.resource, a.proposed)} for a in c.adjustments] or None,
    }
    return {k: v for k, v in fields.items() if v is not None}


def _quota_view(v: QuotaView) -> dict:
    return {
        "node": v.node, "kind": v.kind, "flavor": v.flavor, "resource": v.resource,
        "nominal": format_amount(v.resource, v.nominal),
        "borrowingLimit": None if v.borrowing_limit is None else format_amount(v.resource, v.borrowing_limit),
        "lendingLimit": None if v.lending_limit is None else format_amount(v.resource, v.lending_limit),
        "subtreeQuota": format_amount(v.resource, v.subtree_quota), "usage": format_amount(v.resource, v.usage),
        "available": format_amount(v.resource, v.available),
        "potentialAvailable": format_amount(v.resource, v.potential_available), "borrowing": v.borrowing,
    }


def _holder(h, resource: str) -> dict:
    return {"workload": h.workload, "clusterQueue": h.cluster_queue, "priority": h.priority,
            "amount": format_amount(resource, h.amount), "clusterQueueBorrowing": h.cq_borrowing}


def render(e: Explanation, caveats: tuple = ()) -> str:
    return json.dumps(with_caveats(explanation_dict(e), caveats), indent=2, ensure_ascii=False) + "\n"


def render_all(x, caveats: tuple = ()) -> str:
    return json.dumps(with_caveats(all_document(*unpacked(x)), caveats), indent=2, ensure_ascii=False) + "\n"


def all_document(explanations: list[Explanation], shown: Shown | None = None) -> dict:
    """``explain --all``'s document: one row per workload and the summary (``shown``: the filter
    that cut the rows, and how many there were)."""
    doc = {
        "version": SCHEMA_VERSION,
        "workloads": [{
            "workload": e.workload.key, "clusterQueue": e.workload.cluster_queue, "status": e.status,
            "representativeMode": e.representative_mode, "reason": e.reason, "message": e.message,
            "verdict": e.verdict, "borrowing": e.borrows,
            "change": next((c.description for c in e.changes if c.verified), None),
        } for e in explanations],
        "summary": _summary(explanations),
    }
    if shown is not None:
        doc["filter"] = filter_doc(shown)
    return doc


def _summary(explanations: list[Explanation]) -> dict:
    by_reason: dict[str, int] = {}
    for e in explanations:
        key = e.reason or ("Fits" if e.representative_mode == "Fit" else e.status)
        by_reason[key] = by_reason.get(key, 0) + 1
    return {"pending": len(explanations), "byReason": dict(sorted(by_reason.items()))}


register("explain", "json", lambda x, view: render(outcome(x).result, outcome(x).caveats))
register("explain-all", "json", lambda x, view: render_all(x, outcome(x).caveats))
