"""Human ``quotactl explain`` output: ``table`` (rich, on a terminal) and ``plain`` (piped or
NO_COLOR: the same report without boxes or colour).  Formatting only: every number comes from
the explanation model."""

from __future__ import annotations

from rich.text import Text

from quotactl.kueue.amounts import format_amount
from quotactl.kueue.explain import ADMITTED, PENDING, Explanation, quota_rows
from quotactl.kueue.selection import Shown
from quotactl.report.caveats import above, under_first_line
from quotactl.report.console import (
    FIXED,
    ID,
    PLAIN_VIEW,
    TEXT,
    Col,
    Hanging,
    Sheet,
    View,
    render_to_text,
    sectioned,
)
from quotactl.report.filter_note import shown_line, unpacked
from quotactl.report.renderers import outcome, register


def fmt(resource: str, v: int | None) -> str:
    return "-" if v is None else format_amount(resource, v)


_VERDICT_STYLE = {"Fit": "green", "Reclaim": "yellow", "Preempt": "yellow", "NoCandidates": "red", "NoFit": "red"}
_MODE_STYLE = {"Fit": "bold green", "Preempt": "bold yellow", "NoFit": "bold red"}


def _requests(per_pod: dict[str, int], count: int) -> str:
    if not per_pod:
        return "no requests"
    return ", ".join(f"{r} {format_amount(r, v)}" for r, v in sorted(per_pod.items())) + f" per pod × {count}"


def verdict_line(e: Explanation) -> Hanging:
    """The first line: the workload, its status and the engine's verdict (the number and the next
    step); on a terminal the verdict wraps under itself, after the workload's name."""
    line = Text(e.headline.state, style="bold yellow" if e.status == PENDING else "bold green")
    if e.headline.text:
        line.append(f" — {e.headline.text}")
    return Hanging(Text(f"{e.workload.key}: ", style="bold cyan"), line)


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
        out.append(Hanging("  queue:    ", " → ".join(route)))
    pr = w.priority
    src = pr.source + (f" {pr.class_name}" if pr.class_name else "")
    out.append(Hanging("  priority: ", f"{pr.value} (from {src})" + (f"; {pr.note}" if pr.note else "")))
    for ps in w.pod_sets:
        mc = f", minCount {ps.min_count}" if ps.min_count is not None else ""
        extra = ""
        if ps.node_selector:
            extra += "; nodeSelector " + ", ".join(f"{k}={v}" for k, v in sorted(ps.node_selector.items()))
        if ps.tolerations:
            extra += "; tolerates " + ", ".join(ps.tolerations)
        out.append(Hanging(f"  pod set {ps.name}: ", f"{_requests(ps.per_pod, ps.count)}{mc}{extra}"))
    return out


def _status(e: Explanation) -> list:
    out = []
    line = Text("Status: ", style="bold")
    line.append(e.status, style="bold yellow" if e.status == PENDING else "bold green")
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
            out.append(Hanging("  reason:   ", f"{e.reason}{cr}"))
        if e.message:
            out.append(Hanging("  message:  ", e.message))
        w = e.workload
        if w.condition_reason or w.condition_message:
            out.append(Hanging("  ", Text(f"the input's QuotaReserved condition: reason {w.condition_reason}, "
                                          f"message {w.condition_message!r}", style="dim")))
    return out


# 80 columns: what decides the fit (request, available, verdict, why); --wide adds the quota.
_FLAVOR_COLUMNS = [Col("resource", ID), Col("flavor", ID), Col("request", FIXED, "right"),
                   Col("nominal", FIXED, "right", wide=True), Col("used", FIXED, "right", wide=True),
                   Col("borrowable", FIXED, "right", wide=True), Col("available", FIXED, "right"),
                   Col("verdict", FIXED), Col("why", TEXT, ratio=3)]


def _quota_tables(e: Explanation, view: View) -> list:
    out = []
    rows = quota_rows(e)
    by_ps: dict[str, list] = {}
    for r in rows:
        by_ps.setdefault(r.pod_set, []).append(r)
    for ps_name, ps_rows in by_ps.items():
        t = Sheet(_FLAVOR_COLUMNS, view, title=f"pod set {ps_name}: flavors tried")
        for r in ps_rows:
            if r.resource == "*":
                t.add_row("*", r.flavor, "", "", "", "", "", Text("NoFit", style="red"), r.reason)
                continue
            t.add_row(r.resource, r.flavor, fmt(r.resource, r.request), fmt(r.resource, r.nominal),
                      fmt(r.resource, r.used), fmt(r.resource, r.borrowable), fmt(r.resource, r.available),
                      Text(r.verdict, style=_VERDICT_STYLE.get(r.verdict, "")), _row_why(r))
        out.append(t)
    return out


def _row_why(r) -> str:
    """The row's notes in words: the flavor Kueue assigns, where it borrows from, what earlier pod
    sets already take, and Kueue's reason."""
    parts = ["assigned" if r.chosen else "",
             f"borrows from cohort {r.borrows_from}" if r.borrows_from else "",
             f"plus {fmt(r.resource, r.previous)} {r.resource} for earlier pod sets" if r.previous else "",
             r.reason or ""]
    return "; ".join(p for p in parts if p)


_TREE_COLUMNS = [Col("node", ID), Col("resource", ID), Col("nominal", FIXED, "right"), Col("limits", TEXT, wide=True),
                 Col("subtree quota", FIXED, "right", wide=True), Col("usage", FIXED, "right"),
                 Col("available", FIXED, "right"), Col("potential", FIXED, "right")]


def _quota_tree(e: Explanation, view: View) -> list:
    if not e.quota_tree:
        return []
    t = Sheet(_TREE_COLUMNS, view, title="quota along the cohort path (where the shortage is)")
    for v in e.quota_tree:
        r = v.resource
        limits = ", ".join(x for x in (
            f"borrowingLimit {format_amount(r, v.borrowing_limit)}" if v.borrowing_limit is not None else "",
            f"lendingLimit {format_amount(r, v.lending_limit)}" if v.lending_limit is not None else "") if x) or "-"
        node = ("" if v.kind == "ClusterQueue" else "cohort ") + v.node + (" (borrowing)" if v.borrowing else "")
        t.add_row(node, f"{r} ({v.flavor})", fmt(r, v.nominal), limits, fmt(r, v.subtree_quota), fmt(r, v.usage),
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
        out.append(Hanging(f"  {ps.name} ×{ps.count}: ", parts))
    for name in a.not_evaluated:
        out.append(Text(f"  {name}: not evaluated (Kueue stops at the first pod set that does not fit)", style="dim"))
    return out


SHOWN_DOMAINS = 8  # a placement over more domains is summarised after these


def _topology(e: Explanation, view: View) -> list:
    """Topology-aware scheduling: where Kueue places (or holds) each pod set, or Kueue's reason;
    for a pod set placed nowhere, what would let it fit and its candidate domains."""
    if not e.topology:
        return []
    out = [Text("Topology", style="bold")]
    tables = []
    for t in e.topology:
        where = f"flavor {t.flavor}, topology {t.topology_name}" if t.topology_name else f"flavor {t.flavor}"
        out.append(Hanging(f"  {t.pod_set}: ", f"{t.mode} on {where}"))
        if t.assignment is not None:
            out.append(Hanging("    ", placement_text(t.assignment)))
        elif t.reason:
            out.append(Hanging("    ", t.reason))
        if t.domains is not None:
            out.extend(Hanging("    ", line) for line in _would_fit(t.domains))
            if t.domains.domains:  # none: Kueue's text already says the level has no domain
                tables.append(_domain_table(t.pod_set, t.domains, view))
    return out + tables


_DOMAIN_COLUMNS = [Col("domain", ID), Col("nodes", FIXED, "right"), Col("free", TEXT),
                   Col("pods fit", FIXED, "right"), Col("excluded", TEXT, ratio=2)]


def _domain_table(pod_set: str, v, view: View) -> Sheet:
    """The candidate domains of one pod set, in the order Kueue's placement tries them."""
    more = f" (+{v.omitted} more)" if v.omitted else ""
    t = Sheet(_DOMAIN_COLUMNS, view, title=f"pod set {pod_set}: domains of {v.level}, in Kueue's order{more}")
    for r in v.domains:
        free = ", ".join(f"{res} {format_amount(res, amount)}" for res, amount in r.free.items()) or "-"
        fit = f"{r.pods_fit}/{v.count}" + (f" ({r.slices_fit}/{v.slices} slices)" if r.slices_fit is not None else "")
        excluded = ", ".join(f"{cause}: {n}" for cause, n in r.excluded.items()) or "-"
        t.add_row("/".join(r.values), str(r.nodes), free, fit, excluded)
    return t


def _would_fit(v) -> list[str]:
    """``would fit when default/a is preempted (example.com/rack b1/r2 then fits 4/4 pods)``, one
    line per set of workloads."""
    if not v.frees_up_when:
        return []
    lines = []
    for f in v.frees_up_when:
        names = " and ".join(h.key for h in f.workloads)
        how = "are" if len(f.workloads) > 1 else "is"
        gone = f"{how} preempted" if all(h.preemptable for h in f.workloads) else (
            "finish" if len(f.workloads) > 1 else "finishes")
        lines.append(f"would fit when {names} {gone} ({v.level} {'/'.join(f.values)} then fits "
                     f"{f.pods_fit_after}/{v.count} pods)")
    return lines


def placement_text(ta) -> str:
    """``16 pods in 2 domains of kubernetes.io/hostname: node-1 ×8, node-2 ×8``."""
    pods = sum(d.count for d in ta.domains)
    shown = ", ".join(f"{'/'.join(d.values)} ×{d.count}" for d in ta.domains[:SHOWN_DOMAINS])
    more = f", +{len(ta.domains) - SHOWN_DOMAINS} more" if len(ta.domains) > SHOWN_DOMAINS else ""
    levels = " / ".join(ta.levels)
    return f"{pods} pod(s) in {len(ta.domains)} domain(s) of {levels}: {shown}{more}"


def _preemption(e: Explanation) -> list:
    p = e.preemption
    if p is None:
        return []
    out = [Text("Preemption", style="bold"), Hanging("  ", p.summary)]
    if p.policies:
        out.append(Hanging("  policies: ", Text(", ".join(f"{k} {v}" for k, v in p.policies.items()), style="dim")))
    for v in p.victims:
        out.append(Hanging("  - ", f"{v.workload} in {v.cluster_queue} (priority {v.priority}, {v.reason})"))
    return out


def _holders(e: Explanation) -> list:
    if not e.holders:
        return []
    out = [Text("Who holds the quota", style="bold")]
    for h in e.holders:
        r = h.resource
        out.append(Hanging("  ", f"{r} in flavor {h.flavor}: ClusterQueue {e.workload.cluster_queue} uses "
                                 f"{format_amount(r, h.cluster_queue_total)}"
                                 + (f"; the rest of the cohort {format_amount(r, h.cohort_total)}"
                                    if h.in_cohort or h.cohort_total else "")))
        for x in h.in_cluster_queue:
            out.append(Hanging("    ", f"{x.workload}: {format_amount(r, x.amount)} (priority {x.priority})"))
        for x in h.in_cohort:
            flag = ", its ClusterQueue borrows" if x.cq_borrowing else ""
            out.append(Hanging("    ", f"{x.workload} in {x.cluster_queue}: {format_amount(r, x.amount)} "
                                       f"(priority {x.priority}{flag})"))
    return out


def _changes(e: Explanation) -> list:
    if not e.changes:
        return []
    out = [Text("What would admit it", style="bold")]
    for c in e.changes:
        mark = "✓" if c.verified else "•"
        t = Text(c.description)
        if c.verified:
            t.append("  [verified]", style="green")
        out.append(Hanging(f"  {mark} ", t))
    return out


def _holdings(e: Explanation) -> list:
    if e.status != ADMITTED:
        return []
    out = [Text("Holds", style="bold")]
    for h in e.holdings:
        b = " — ClusterQueue above nominal (borrowing)" if h.borrowing else ""
        out.append(Hanging(f"  {h.pod_set}: ", f"{h.resource} {format_amount(h.resource, h.amount)} of flavor "
                           f"{h.flavor} (ClusterQueue uses {format_amount(h.resource, h.cq_usage)} of nominal "
                           f"{format_amount(h.resource, h.nominal)}){b}"))
    return out


def _notes(e: Explanation) -> list:
    if not e.notes:
        return []
    return [Text("Notes", style="bold")] + [Hanging("  - ", n) for n in e.notes]


def renderables(e: Explanation, view: View) -> list:
    return sectioned(([verdict_line(e)], _heading(e), _status(e), _holdings(e), _quota_tables(e, view), _assignment(e),
                      _topology(e, view), _quota_tree(e, view), _preemption(e), _holders(e), _changes(e), _notes(e)))


def render_plain(e: Explanation, view: View = View()) -> str:
    return render_to_text(renderables(e, PLAIN_VIEW), plain=True)


def render_table(e: Explanation, view: View = View()) -> str:
    return render_to_text(renderables(e, view), view=view)


# 80 columns: the workload, Kueue's reason and the verdict, with the smallest verified change under
# it; the wide set (200 columns, --wide, plain): its ClusterQueue, the mode and the change in their
# own columns.
_ALL_COLUMNS = [Col("workload", ID), Col("clusterQueue", ID, wide=True), Col("mode", FIXED, wide=True),
                Col("reason", FIXED), Col("why", TEXT, ratio=3, wide=False), Col("why", TEXT, ratio=3, wide=True),
                Col("smallest change", TEXT, ratio=3, wide=True)]


def _all_table(explanations: list[Explanation], view: View, extra: dict | None = None) -> Sheet:
    """``extra``: more columns, name -> {workload key: cell} (explain --all --eta's ETA)."""
    extra = extra or {}
    t = Sheet(_ALL_COLUMNS + [Col(name, FIXED) for name in extra], view)
    for e in explanations:
        change = next((c.description for c in e.changes if c.verified), "")
        mode = e.representative_mode or "-"
        why = Text(e.headline.short)
        if change:
            why.append(f"\nwould admit it: {change}", style="dim")
        t.add_row(e.workload.key, e.workload.cluster_queue or "-", Text(mode, style=_MODE_STYLE.get(mode, "")),
                  e.reason or ("-" if mode != "Fit" else "fits"), why, e.headline.short, change,
                  *(cells.get(e.workload.key, "-") for cells in extra.values()))
    return t


def _all_summary(explanations: list[Explanation], shown: Shown | None = None) -> Text:
    n = len(explanations)
    if shown is not None:  # filtered: say so, so that "none" never reads as an empty cluster
        head = shown_line(shown, "pending workloads")
        if not n:
            return Text(head, style="bold")
    elif not n:
        return Text("no pending workloads", style="bold")
    else:
        head = f"{n} pending workload{'s' if n != 1 else ''}"
    by: dict[str, int] = {}
    for e in explanations:
        k = e.reason or ("fits now" if e.representative_mode == "Fit" else e.status)
        by[k] = by.get(k, 0) + 1
    return Text(f"{head}: " + ", ".join(f"{v} {k}" for k, v in sorted(by.items())), style="bold")


def all_sections(explanations: list[Explanation], view: View, extra: dict | None = None,
                 shown: Shown | None = None) -> list:
    """``explain --all``'s table (``extra``: more columns, see ``_all_table``) and summary line
    (``shown``: what -n/--cluster-queue/-l left of it)."""
    return [_all_table(explanations, view, extra), _all_summary(explanations, shown)]


def render_all_plain(x, view: View = View()) -> str:
    explanations, shown = unpacked(x)
    return render_to_text(all_sections(explanations, PLAIN_VIEW, shown=shown), plain=True)


def render_all_table(x, view: View = View()) -> str:
    explanations, shown = unpacked(x)
    return render_to_text(all_sections(explanations, view, shown=shown), view=view)


register("explain", "table", lambda x, view: under_first_line(render_table(outcome(x).result, view),
                                                               outcome(x).caveats, view))
register("explain", "plain", lambda x, view: under_first_line(render_plain(outcome(x).result, view),
                                                               outcome(x).caveats))
register("explain-all", "table", lambda x, view: above(render_all_table(x, view), outcome(x).caveats, view))
register("explain-all", "plain", lambda x, view: above(render_all_plain(x, view), outcome(x).caveats))
