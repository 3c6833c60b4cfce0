"""``quotactl diff --output json`` (schema: schemas/output/diff.json).  Formatting only."""

from __future__ import annotations

import json

from quotactl.kueue.amounts import format_amount
from quotactl.kueue.diff import DiffResult
from quotactl.report.caveats import with_caveats
from quotactl.report.filter_note import filter_doc
from quotactl.report.renderers import register
from quotactl.report.schedule_json import document as schedule_document
from quotactl.report.topology_json import topology_assignment_dict


def _amt(res: str, v: int | None):
    return None if v is None else (format_amount(res, v) if res != "*" else v)


def _assignments(held: dict | None) -> dict | None:
    return None if held is None else {ps: topology_assignment_dict(ta) for ps, ta in held.items()}


def _topology_change(w) -> dict:
    """A TAS workload's topology assignments at the base and head fixpoints (null where it is not
    admitted); nothing for a workload without TAS."""
    if w.topology_before is None and w.topology_after is None:
        return {}
    return {"topologyBefore": _assignments(w.topology_before), "topologyAfter": _assignments(w.topology_after)}


def document(d: DiffResult, failed: tuple[str, ...] = ()) -> dict:
    def side(r, topology: dict):
        doc = schedule_document(r)
        for key, held in topology.items():
            if key in doc["finalAdmitted"]:
                doc["finalAdmitted"][key]["topologyAssignments"] = _assignments(held)
        return {k: doc[k] for k in ("cycles", "converged", "admitted", "preempted", "pending", "finalAdmitted")
                } | ({"livelock": doc["livelock"]} if "livelock" in doc else {})
    doc = {
        "version": 1,
        "workloads": [{"workload": w.workload, "change": w.kind, "before": w.before, "after": w.after,
                       **({"detail": w.detail} if w.detail else {}), **_topology_change(w)} for w in d.workloads],
        "summary": {"losesAdmission": len(d.starvation), "newlyPreempted": len(d.evictions),
                    "newlyAdmitted": len(d.of_kind("newlyAdmitted")), "moved": len(d.of_kind("moved")),
                    "capacityChanges": len(d.capacity)},
        "capacity": [{"node": c.node, "kind": c.kind, "flavor": c.flavor, "resource": c.resource, "field": c.field,
                      "before": _amt(c.resource, c.before), "after": _amt(c.resource, c.after)} for c in d.capacity],
        "usage": [{"node": u.node, "kind": u.kind, "flavor": u.flavor, "resource": u.resource,
                   "before": format_amount(u.resource, u.before), "after": format_amount(u.resource, u.after)}
                  for u in d.usage],
        "onlyInBase": list(d.only_in_base),
        "onlyInHead": list(d.only_in_head),
        "failed": list(failed),
        "base": side(d.base, d.topology_base),
        "head": side(d.head, d.topology_head),
    }
    if d.shown is not None:
        doc["filter"] = filter_doc(d.shown)
    return doc


def render(d: DiffResult, failed: tuple[str, ...] = (), caveats: tuple = ()) -> str:
    return json.dumps(with_caveats(document(d, failed), caveats), indent=2) + "\n"


register("diff", "json", lambda o, view: render(o.result, o.context, o.caveats))
