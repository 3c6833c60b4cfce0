"""A topology assignment in JSON: the decompressed form Kueue uses internally
(``utiltas.TopologyAssignment``), domains in the engine's order (Kueue's: by their values)."""

from __future__ import annotations

from quotactl.model.kueue_tas import TopologyAssignment


def topology_assignment_dict(ta: TopologyAssignment | None) -> dict | None:
    if ta is None:
        return None
    return {"levels": list(ta.levels), "domains": [{"values": list(d.values), "count": d.count} for d in ta.domains]}
