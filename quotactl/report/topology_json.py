"""A topology assignment in JSON: the decompressed form Kueue uses internally
(``utiltas.TopologyAssignment``), domains in the engine's order (Kueue's: by their values)."""

from __future__ import annotations

from quotactl.model.kueue_tas import TopologyAssignment


def topology_assignment_dict(ta: TopologyAssignment | None) -> dict | None:
    if ta is None:
        return None
    return {"levels": list(ta.levels), "domains": [{"values": list(d.values), "count": d.count} for d in ta.domains]}


def topology_rows_dict(rows) -> dict:
    """``explain``'s ``topology`` field (also ``preempt``'s): pod set -> its TAS flavor, mode, and
    the placement or Kueue's reason (``rows``: ``kueue.explain.TopologyRow``)."""
    return {t.pod_set: {"flavor": t.flavor, "topologyName": t.topology_name, "mode": t.mode,
                        "assignment": topology_assignment_dict(t.assignment), "reason": t.reason}
            for t in rows}


def held_assignments_dict(rows) -> dict:
    """Pod set -> the topology assignment a workload holds (``TopologyRow``s of an admitted one)."""
    return {t.pod_set: topology_assignment_dict(t.assignment) for t in rows}
