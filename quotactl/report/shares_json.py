"""``quotactl shares --output json``: documented by schemas/output/shares.json.  Pure formatting
of the share tree."""

from __future__ import annotations

import json

from quotactl.kueue.amounts import format_amount
from quotactl.kueue.fairshare import RankedHead, ShareNode, ShareTree
from quotactl.report.caveats import with_caveats
from quotactl.report.filter_note import filter_doc
from quotactl.report.renderers import register

SCHEMA_VERSION = 1


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 3)


def _node(n: ShareNode) -> dict:
    return {
        "name": n.name, "kind": n.kind, "parent": n.parent, "depth": n.depth, "children": list(n.children),
        "weight": n.weight, "implicit": n.implicit, "active": n.active, "borrowing": n.borrowing,
        "dominantResource": n.dominant_resource, "unweightedShare": _round(n.unweighted_share) if n.has_share else 0,
        "weightedShare": _round(n.weighted_share) if n.has_share else 0,
        "weightedShareStatus": n.status_weighted_share if n.has_share else 0,
        "rank": n.rank,
        "resources": [{
            "resource": r.resource, "quota": format_amount(r.resource, r.quota),
            "usage": format_amount(r.resource, r.usage), "borrowed": format_amount(r.resource, r.borrowed),
            "lendable": format_amount(r.resource, r.lendable) if n.has_share else None, "share": _round(r.share),
        } for r in n.resources],
        "flavors": [{
            "flavor": f.flavor, "resource": f.resource, "nominal": format_amount(f.resource, f.nominal),
            "quota": format_amount(f.resource, f.quota), "usage": format_amount(f.resource, f.usage),
            "borrowed": format_amount(f.resource, f.borrowed),
        } for f in n.flavors],
    }


def shares_dict(tree: ShareTree, heads: tuple[RankedHead, ...] = ()) -> dict:
    doc = {
        "version": SCHEMA_VERSION,
        "fairSharing": tree.fair_sharing,
        "nodes": [_node(n) for n in tree.nodes],
        "heads": [{"order": h.order, "workload": h.workload, "clusterQueue": h.cluster_queue, "mode": h.mode,
                   "priority": h.priority, "share": _round(h.share), "borrowing": h.borrowing} for h in heads],
    }
    if tree.shown is not None:
        doc["filter"] = filter_doc(tree.shown)
    return doc


def render(tree: ShareTree, heads: tuple[RankedHead, ...] = (), caveats: tuple = ()) -> str:
    return json.dumps(with_caveats(shares_dict(tree, heads), caveats), indent=2, ensure_ascii=False) + "\n"


register("shares", "json", lambda o, view: render(o.result, o.context, o.caveats))
