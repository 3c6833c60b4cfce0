"""``quotactl explain`` / ``quotactl preempt`` ``--output json`` for YuniKorn pods
(schemas/output/yunikorn-explain.json, schemas/output/yunikorn-preempt.json).

Resources are YuniKorn's internal integers: ``vcore`` in millicores, ``memory`` and
``ephemeral-storage`` in bytes, everything else as counted.  A view only: every value comes from
``quotactl.yunikorn.explain.Explanation``.
"""

from __future__ import annotations

import json

from quotactl.report.caveats import with_caveats
from quotactl.report.renderers import register
from quotactl.yunikorn.explain import Explanation
from quotactl.yunikorn.preemptor import PreemptionResult, Victim

SCHEMA_VERSION = 1


def _victim(v: Victim) -> dict:
    return {"workload": v.key, "queue": v.queue, "node": v.node, "priority": v.priority,
            "application": v.application, "resources": dict(v.resource), "step": v.step, "reason": None}


def preemption_dict(pre: PreemptionResult | None, path: str | None, direct: bool) -> dict | None:
    if pre is None:
        return None
    gc = pre.guarantee_check
    return {
        "path": "direct" if direct else path,
        "success": pre.success,
        "log": list(pre.log),
        "preconditions": list(pre.preconditions),
        "fence": pre.fence,
        "fenceReason": pre.fence_reason,
        "askPriorityByQueue": {q: p for q, p in pre.priority_by_queue},
        "candidates": [{"workload": c.key, "queue": c.queue, "node": c.node, "priority": c.priority,
                        "comparedWith": c.compared_with, "fenced": c.fenced, "allowPreemption": c.allow_preempt_self,
                        "originator": c.originator, "resources": dict(c.resource)} for c in pre.candidates],
        "excluded": [{"what": e.what, "kind": e.kind, "reason": e.reason} for e in pre.excluded],
        "guaranteeCheck": None if gc is None else {
            "passed": gc.passed, "remaining": gc.remaining, "remainingWithAsk": gc.remaining_with_ask,
            "victimsNeeded": gc.victims_needed, "reason": gc.reason},
        "droppedNodes": [{"node": d.node, "reason": d.reason} for d in pre.dropped_nodes],
        "nodeChecks": [{"node": c.node, "startIndex": c.start_index, "victims": list(c.victims),
                        "predicateIndex": c.predicate_index, "success": c.success, "score": c.score,
                        "reason": c.reason} for c in pre.node_checks],
        "nodeVictims": list(pre.node_victims),
        "additionalCandidates": list(pre.additional_candidates),
        "additionalVictims": list(pre.additional_victims),
        "finalCut": {"victims": list(pre.cut), "total": dict(pre.cut_total)},
        "fitsAfterVictims": pre.fits_after,
        "queueLevelOnly": pre.queue_level_only,
        "notes": list(pre.notes),
    }


def _common(e: Explanation, direct: bool) -> dict:
    t = e.task
    o = e.outcome
    app = e.application
    if e.status == "Running":
        placed, node, result = True, t.node, "Running"
    else:
        placed, node, result = (o.placed, o.node, o.result) if o is not None else (False, None, e.status)
    victims = [_victim(v) for v in (o.victims if o is not None else ())]
    return {
        "version": SCHEMA_VERSION,
        "scheduler": "yunikorn",
        "workload": t.key,
        "status": e.status,
        "application": t.application,
        "queue": t.queue,
        "placement": app.placement if app else None,
        "user": t.user,
        "priority": t.priority,
        "ask": dict(t.resource),
        "mode": "direct" if direct else "scheduling",
        "representativeMode": e.mode,
        "result": result,
        "placed": placed,
        "node": node,
        "victims": victims,
        "refusal": o.refusal if o is not None else None,
        "allocationLog": list(o.log) if o is not None else [],
        "reason": e.reason,
        "message": e.messages[0] if e.messages else None,
        "messages": list(e.messages),
        "notes": list(e.notes),
    }


def explain_dict(e: Explanation, direct: bool = False) -> dict:
    doc = _common(e, direct)
    o = e.outcome
    doc["priorities"] = {
        "pod": e.task.priority,
        "application": e.app_priority,
        "queues": [{"queue": q.path, "current": q.current if q.pending else None,
                    "exposed": q.exposed if q.pending else None, "policy": q.policy, "offset": q.offset}
                   for q in e.queue_priorities],
    }
    doc["order"] = [{"parent": s.parent, "child": s.child, "position": s.position, "order": list(s.order),
                     "by": s.by} for s in e.order]
    doc["applicationOrder"] = list(e.app_order)
    doc["headroom"] = o.headroom if o is not None else None
    doc["headroomFits"] = o.headroom_fits if o is not None else None
    doc["queues"] = [] if o is None else [
        {"queue": q.path, "max": q.max, "effectiveMax": q.effective_max, "guaranteed": q.guaranteed,
         "allocated": q.allocated, "headroom": q.own_headroom, "fits": q.fits} for q in o.queue_limits]
    doc["userLimits"] = [] if o is None else [
        {"queue": u.queue, "limit": u.limit, "who": u.who, "maxResources": u.max_resources, "used": u.used,
         "fits": u.fits} for u in o.user_limits]
    doc["nodes"] = [] if o is None else [
        {"node": f.node, "score": round(f.score, 6), "available": f.available, "fits": f.fits, "reason": f.reason}
        for f in o.node_fits]
    doc["preemption"] = preemption_dict(o.preemption, o.path, o.direct) if o is not None else None
    return doc


def preempt_dict(e: Explanation, direct: bool = False) -> dict:
    doc = _common(e, direct)
    o = e.outcome
    doc["preemption"] = preemption_dict(o.preemption, o.path, o.direct) if o is not None else None
    return doc


def render_explain(e: Explanation, direct: bool = False, caveats: tuple = ()) -> str:
    return json.dumps(with_caveats(explain_dict(e, direct), caveats), indent=2, ensure_ascii=False) + "\n"


def render_preempt(e: Explanation, direct: bool = False, caveats: tuple = ()) -> str:
    return json.dumps(with_caveats(preempt_dict(e, direct), caveats), indent=2, ensure_ascii=False) + "\n"


register("yunikorn-explain", "json", lambda o, view: render_explain(o.result, o.context, o.caveats))
register("yunikorn-preempt", "json", lambda o, view: render_preempt(o.result, o.context, o.caveats))
