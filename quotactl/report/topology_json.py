"""A topology assignment in JSON: the decompressed form Kueue uses internally
(``utiltas.TopologyAssignment``), domains in the engine's order (Kueue's: by their values); and
explain's candidate domains of a pod set placed nowhere."""

from __future__ import annotations

from quotactl.kueue.amounts import format_amount
from quotactl.kueue.tas.domain_view import DomainRow, DomainView
from quotactl.model.kueue_tas import TopologyAssignment


def topology_assignment_dict(ta: TopologyAssignment | None) -> dict | None:
    if ta is None:
        return None
    return {"levels": list(ta.levels), "domains": [{"values": list(d.values), "count": d.count} for d in ta.domains]}


def domain_view_fields(view: DomainView | None) -> dict:
    """explain's candidate domains of a pod set placed nowhere (``tas.domain_view``), in Kueue's
    order; free capacity as Kueue prints amounts; nothing when there is no view."""
    if view is None:
        return {}
    return {
        "domains": [_domain_row(view.level, r) for r in view.domains],
        "domainsOmitted": view.omitted,
        "freesUpWhen": [{"workloads": [{"workload": h.key, "preemptable": h.preemptable} for h in f.workloads],
                         "level": view.level, "values": list(f.values), "podsFitAfter": f.pods_fit_after}
                        for f in view.frees_up_when],
    }


def _domain_row(level: str, r: DomainRow) -> dict:
    out = {"level": level, "values": list(r.values), "nodes": r.nodes,
           "free": {res: format_amount(res, v) for res, v in r.free.items()}, "podsFit": r.pods_fit}
    if r.slices_fit is not None:
        out["slicesFit"] = r.slices_fit
    out["excluded"] = dict(r.excluded)
    return out


def topology_rows_dict(rows) -> dict:
    """``explain``'s ``topology`` field (also ``preempt``'s): pod set -> its TAS flavor, mode, and
    the placement or Kueue's reason (``rows``: ``kueue.explain.TopologyRow``)."""
    return {t.pod_set: {"flavor": t.flavor, "topologyName": t.topology_name, "mode": t.mode,
                        "assignment": topology_assignment_dict(t.assignment), "reason": t.reason,
                        **domain_view_fields(t.domains)}
            for t in rows}


def held_assignments_dict(rows) -> dict:
    """Pod set -> the topology assignment a workload holds (``TopologyRow``s of an admitted one)."""
    return {t.pod_set: topology_assignment_dict(t.assignment) for t in rows}
