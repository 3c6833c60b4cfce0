"""How a report says it was filtered (``-n``, ``--cluster-queue``, ``-l``): one text line and one
JSON object, the same for every command, so a filter never reads as an empty cluster."""

from __future__ import annotations

from quotactl.kueue.selection import Selection, Shown
from quotactl.report.renderers import Outcome


def filter_text(selection: Selection) -> str:
    """``namespace team-a, ClusterQueue cq-a or cq-b, selector app=x``."""
    parts = []
    if selection.namespace:
        parts.append(f"namespace {selection.namespace}")
    if selection.cluster_queues:
        parts.append("ClusterQueue " + " or ".join(selection.cluster_queues))
    if selection.selector_text:
        parts.append(f"selector {selection.selector_text}")
    return ", ".join(parts)


def shown_line(shown: Shown, label: str) -> str:
    """One list: ``3 of 12 pending workloads shown (namespace team-a)`` (``label``: "pending
    workloads"); several: ``workloads shown (namespace team-a): 1 of 4 admitted, 2 of 5 pending``."""
    if len(shown.counts) == 1:
        _what, n, total = shown.counts[0]
        return f"{n} of {total} {label} shown ({filter_text(shown.selection)})"
    counts = ", ".join(f"{n} of {total} {what}" for what, n, total in shown.counts)
    return f"{label} shown ({filter_text(shown.selection)}): {counts}"


def filter_doc(shown: Shown) -> dict:
    """The ``filter`` object of a JSON document: the filters and, per list of the document (by
    its name there), how many entries it shows and how many there are."""
    s = shown.selection
    return {"namespace": s.namespace, "clusterQueues": list(s.cluster_queues), "selector": s.selector_text,
            "shown": {what: n for what, n, _total in shown.counts},
            "total": {what: total for what, _n, total in shown.counts}}


def unpacked(x) -> tuple[object, Shown | None]:
    """A result the command passed as ``Outcome(result, Shown)`` (filtered), as another Outcome, or bare."""
    if isinstance(x, Outcome):
        return x.result, x.context if isinstance(x.context, Shown) else None
    return x, None
