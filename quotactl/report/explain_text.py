"""Human ``quotactl explain`` output: ``table`` (rich, on a terminal) and ``plain`` (piped or
NO_COLOR: the same report without boxes or colour).  Formatting only: every number comes from
the explanation model."""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text

from quotactl.kueue.amounts import format_amount
from quotactl.kueue.explain import ADMITTED, PENDING, Explanation, quota_rows
from quotactl.report.console import render_to_text, sectioned
from quotactl.report.renderers import register


def fmt(resource: str, v: int | None) -> str:
    return "-" if v is None else format_amount(resource, v)


_VERDICT_STYLE = {"Fit": "green", "Reclaim": "yellow", "Preempt": "yellow", "NoCandidates": "red", "NoFit": "red"}
_MODE_STYLE = {"Fit": "bold green", "Preempt": "bold yellow", "NoFit": "bold red"}


def _requests(per_pod: dict[str, int], count: int) -> str:
    if not per_pod:
        return "no requests"
    return ", ".join(f"{r} {format_amount(r, v)}" for r, v in sorted(per_pod.items())) + f" per pod × {count}"


def _heading(e: Explanation) -> list:
    w = e.workload
    out = []
    title = Text("Workload ", style="bold")
    title.append(w.key, style="bold cyan")
    out.append(title)
    route = []
    if w.queue_name:
        route.append(f"LocalQueue {w.namespace}/{w.queue_name}")
    if w.cluster_queue:
        route.append(f"ClusterQueue {w.cluster_queue}")
    if w.cohort_path:
        route.append("cohort " + "/".join(w.cohort_path))
    if route:
        out.append(Text("  queue:    " + " → ".join(route)))
    pr = w.priority
    src = pr.source + (f" {pr.class_name}" if pr.class_name else "")
    out.append(Text(f"  priority: {pr.value} (from {src})" + (f"; {pr.note}" if pr.note else "")))
    for ps in w.pod_sets:
        mc = f", minCount {ps.min_count}" if ps.min_count is not None else ""
        extra = ""
        if ps.node_selector:
            extra += "; nodeSelector " + ", ".join(f"{k}={v}" for k, v in sorted(ps.node_selector.items()))
        if ps.tolerations:
            extra += "; tolerates " + ", ".join(ps.tolerations)
        out.append(Text(f"  pod set {ps.name}: {_requests(ps.per_pod, ps.count)}{mc}{extra}"))
    return out


def _status(e: Explanation) -> list:
    out = []
    line = Text("Status: ", style="bold")
    line.append(e.status, style="bold yellow" if e.status == PENDING else "bold green")
    line.append(f" — {e.verdict}")
    out.append(line)
    if e.status == PENDING:
        mode = e.representative_mode
        if mode and e.blocker is None:
            m = Text("  mode:     ")
            m.append(mode, style=_MODE_STYLE.get(mode, ""))
            if e.assignment is not None and e.assignment.borrowing:
                m.append(f" (borrowing level {e.assignment.borrowing})")
            out.append(m)
        if e.reason:
            cr = f" (condition reason written: {e.condition_reason})" if e.condition_reason != e.reason else ""
            out.append(Text(f"  reason:   {e.reason}{cr}"))
        if e.message:
            out.append(Text(f"  message:  {e.message}"))
        w = e.workload
        if w.condition_reason or w.condition_message:
            out.append(Text(f"  the input's QuotaReserved condition: reason {w.condition_reason}, "
                            f"message {w.condition_message!r}", style="dim"))
    return out


def _quota_tables(e: Explanation, plain: bool) -> list:
    out = []
    rows = quota_rows(e)
    by_ps: dict[str, list] = {}
    for r in rows:
        by_ps.setdefault(r.pod_set, []).append(r)
    for ps_name, ps_rows in by_ps.items():
        t = Table(title=Text(f"pod set {ps_name}: flavors tried", style="bold"), title_justify="left",
                  box=None if plain else box.SIMPLE_HEAD, header_style="bold", pad_edge=False)
        for col, just in (("resource", "left"), ("flavor", "left"), ("request", "right"), ("nominal", "right"),
                          ("used", "right"), ("borrowable", "right"), ("available", "right"), ("verdict", "left"),
                          ("why", "left")):
            t.add_column(col, justify=just, overflow="fold", ratio=3 if col == "why" else None)
        for r in ps_rows:
            if r.resource == "*":
                t.add_row("*", r.flavor, "", "", "", "", "", Text("NoFit", style="red"), r.reason or "")
                continue
            req = fmt(r.resource, r.request) + (f" (+{fmt(r.resource, r.previous)})" if r.previous else "")
            verdict = r.verdict + (f" b={r.borrow}" if r.borrow else "") + (" ←" if r.chosen else "")
            t.add_row(r.resource, r.flavor, req, fmt(r.resource, r.nominal), fmt(r.resource, r.used),
                      fmt(r.resource, r.borrowable), fmt(r.resource, r.available),
                      Text(verdict, style=_VERDICT_STYLE.get(r.verdict, "")), r.reason or "")
        out.append(t)
    return out


def _quota_tree(e: Explanation, plain: bool) -> list:
    if not e.quota_tree:
        return []
    t = Table(title=Text("quota along the cohort path (where the shortage is)", style="bold"), title_justify="left",
              box=None if plain else box.SIMPLE_HEAD, header_style="bold", pad_edge=False)
    for col in ("flavor/resource", "node", "nominal", "limits", "subtree quota", "usage", "available", "potential"):
        t.add_column(col, justify="left" if col in ("flavor/resource", "node", "limits") else "right")
    for v in e.quota_tree:
        r = v.resource
        limits = ", ".join(x for x in (
            f"borrow ≤ {format_amount(r, v.borrowing_limit)}" if v.borrowing_limit is not None else "",
            f"lend ≤ {format_amount(r, v.lending_limit)}" if v.lending_limit is not None else "") if x) or "-"
        node = ("" if v.kind == "ClusterQueue" else "cohort ") + v.node + (" (borrowing)" if v.borrowing else "")
        t.add_row(f"{r} ({v.flavor})", node, fmt(r, v.nominal), limits, fmt(r, v.subtree_quota), fmt(r, v.usage),
                  fmt(r, v.available), fmt(r, v.potential_available))
    return [t]


def _assignment(e: Explanation) -> list:
    a = e.assignment
    if a is None:
        return []
    out = [Text("Assignment", style="bold")]
    for ps in a.pod_sets:
        if ps.flavors:
            parts = ", ".join(f"{r} → {fa.flavor} ({fa.mode.name}{', borrows' if fa.borrow else ''})"
                              for r, fa in ps.flavors.items())
        else:
            parts = "no flavor"
        out.append(Text(f"  {ps.name} ×{ps.count}: {parts}"))
    for name in a.not_evaluated:
        out.append(Text(f"  {name}: not evaluated (Kueue stops at the first pod set that does not fit)", style="dim"))
    return out


def _preemption(e: Explanation) -> list:
    p = e.preemption
    if p is None:
        return []
    out = [Text("Preemption", style="bold"), Text(f"  {p.summary}")]
    if p.policies:
        out.append(Text("  policies: " + ", ".join(f"{k} {v}" for k, v in p.policies.items()), style="dim"))
    for v in p.victims:
        out.append(Text(f"  - {v.workload} in {v.cluster_queue} (priority {v.priority}, {v.reason})"))
    return out


def _holders(e: Explanation) -> list:
    if not e.holders:
        return []
    out = [Text("Who holds the quota", style="bold")]
    for h in e.holders:
        r = h.resource
        out.append(Text(f"  {r} in flavor {h.flavor}: ClusterQueue {e.workload.cluster_queue} uses "
                        f"{format_amount(r, h.cluster_queue_total)}"
                        + (f"; the rest of the cohort {format_amount(r, h.cohort_total)}" if h.in_cohort or h.cohort_total
                           else "")))
        for x in h.in_cluster_queue:
            out.append(Text(f"    {x.workload}: {format_amount(r, x.amount)} (priority {x.priority})"))
        for x in h.in_cohort:
            flag = ", its ClusterQueue borrows" if x.cq_borrowing else ""
            out.append(Text(f"    {x.workload} in {x.cluster_queue}: {format_amount(r, x.amount)} "
                            f"(priority {x.priority}{flag})"))
    return out


def _changes(e: Explanation) -> list:
    if not e.changes:
        return []
    out = [Text("What would admit it", style="bold")]
    for c in e.changes:
        mark = "✓" if c.verified else "•"
        t = Text(f"  {mark} ")
        t.append(c.description)
        if c.verified:
            t.append("  [verified]", style="green")
        out.append(t)
    return out


def _holdings(e: Explanation) -> list:
    if e.status != ADMITTED:
        return []
    out = [Text("Holds", style="bold")]
    for h in e.holdings:
        b = " — ClusterQueue above nominal (borrowing)" if h.borrowing else ""
        out.append(Text(f"  {h.pod_set}: {h.resource} {format_amount(h.resource, h.amount)} of flavor {h.flavor} "
                        f"(ClusterQueue uses {format_amount(h.resource, h.cq_usage)} of nominal "
                        f"{format_amount(h.resource, h.nominal)}){b}"))
    return out


def _notes(e: Explanation) -> list:
    if not e.notes:
        return []
    return [Text("Notes", style="bold")] + [Text(f"  - {n}") for n in e.notes]


def renderables(e: Explanation, plain: bool) -> list:
    return sectioned((_heading(e), _status(e), _holdings(e), _quota_tables(e, plain), _assignment(e),
                    _quota_tree(e, plain), _preemption(e), _holders(e), _changes(e), _notes(e)))


def render_plain(e: Explanation, width: int | None = None) -> str:
    return render_to_text(renderables(e, plain=True), width=width, color=False)


def render_table(e: Explanation, width: int | None = None, color: bool = False) -> str:
    return render_to_text(renderables(e, plain=False), width=width, color=color)


def _all_table(explanations: list[Explanation], plain: bool, extra: dict | None = None) -> Table:
    """``extra``: more columns, name -> {workload key: cell} (explain --all --eta's ETA)."""
    extra = extra or {}
    t = Table(box=None if plain else box.SIMPLE_HEAD, header_style="bold", pad_edge=False)
    for col in ("workload", "clusterQueue", "mode", "reason", "why", "smallest change", *extra):
        t.add_column(col, overflow="fold", ratio=3 if col in ("why", "smallest change") else None)
    for e in explanations:
        change = next((c.description for c in e.changes if c.verified), "")
        mode = e.representative_mode or "-"
        t.add_row(e.workload.key, e.workload.cluster_queue or "-", Text(mode, style=_MODE_STYLE.get(mode, "")),
                  e.reason or ("-" if mode != "Fit" else "fits"), e.verdict, change,
                  *(cells.get(e.workload.key, "-") for cells in extra.values()))
    return t


def _all_summary(explanations: list[Explanation]) -> Text:
    n = len(explanations)
    if not n:
        return Text("no pending workloads", style="bold")
    by: dict[str, int] = {}
    for e in explanations:
        k = e.reason or ("fits now" if e.representative_mode == "Fit" else e.status)
        by[k] = by.get(k, 0) + 1
    return Text(f"{n} pending workload{'s' if n != 1 else ''}: " + ", ".join(f"{v} {k}" for k, v in sorted(by.items())),
                style="bold")


def all_sections(explanations: list[Explanation], plain: bool, extra: dict | None = None) -> list:
    """``explain --all``'s table (``extra``: more columns, see ``_all_table``) and summary line."""
    return [_all_table(explanations, plain, extra), _all_summary(explanations)]


def render_all_plain(explanations: list[Explanation], width: int | None = None) -> str:
    return render_to_text(all_sections(explanations, True), width=width, color=False)


def render_all_table(explanations: list[Explanation], width: int | None = None, color: bool = False) -> str:
    return render_to_text(all_sections(explanations, False), width=width, color=color)


register("explain", "table", lambda e, color: render_table(e, color=color))
register("explain", "plain", lambda e, color: render_plain(e))
register("explain-all", "table", lambda explanations, color: render_all_table(explanations, color=color))
register("explain-all", "plain", lambda explanations, color: render_all_plain(explanations))
