"""Human ``quotactl preempt`` output: ``table`` (rich, on a terminal) and ``plain`` (piped or
NO_COLOR: the same report without boxes or colour).  Formatting only: every number and every
sentence of reasoning comes from the decision model."""

from __future__ import annotations

from rich.text import Text

from quotactl.kueue.amounts import format_amount
from quotactl.kueue.preempt_decision import PreemptDecision
from quotactl.report.caveats import under_first_line
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
from quotactl.report.explain_text import placement_text
from quotactl.report.renderers import outcome, register

_ACTION_STYLE = {"removed": "yellow", "kept": "bold red", "put-back": "green", "skipped": "dim",
                 "deferred": "cyan", "rejected": "dim"}
_REASON_STYLE = {"InClusterQueue": "yellow", "InCohortReclamation": "magenta", "InCohortFairSharing": "cyan",
                 "InCohortReclaimWhileBorrowing": "red"}
_MAX_EXCLUDED_NAMES = 5


def _heading(d: PreemptDecision) -> list:
    e = d.explanation
    w = e.workload
    title = Text("Preemption for ", style="bold")
    title.append(w.key, style="bold cyan")
    out = [title]
    route = []
    if w.cluster_queue:
        route.append(f"ClusterQueue {w.cluster_queue}")
    if w.cohort_path:
        route.append("cohort " + "/".join(w.cohort_path))
    if route:
        out.append(Hanging("  queue:      ", " → ".join(route)))
    out.append(Hanging("  priority:   ", str(w.priority.value)))
    if d.policies:
        pol = ", ".join(f"{k} {v}" for k, v in d.policies.items())
        out.append(Hanging("  policies:   ", pol))
    if d.fair_sharing:
        out.append(Hanging("  fair sharing: ", "on (strategies " + ", ".join(d.strategies) + ")"))
    return out


def _verdict(d: PreemptDecision) -> list:
    e = d.explanation
    line = Text("Verdict: ", style="bold")
    line.append(d.summary, style="bold yellow" if d.victims else ("bold green" if d.blocking and
                                                                   d.blocking.rule == "Fits" else "bold red"))
    out = [line]
    if d.representative_mode:
        out.append(Hanging("  mode:     ", d.representative_mode))
    if e.reason:
        out.append(Hanging("  reason:   ", e.reason))
    if d.message:
        out.append(Hanging("  message:  ", d.message))
    return out


def _assignment(d: PreemptDecision) -> list:
    a = d.explanation.assignment
    if a is None:
        return []
    if d.pinned:
        pins = ", ".join(f"{ps + ':' if ps else ''}{r}={f}" for ps, r, f in d.pinned)
        out = [Text(f"Flavor assignment (what-if: only {pins}; not necessarily Kueue's own choice)", style="bold")]
    else:
        out = [Text("Flavor assignment (Kueue's own, with its preemption oracle)", style="bold")]
    for ps in a.pod_sets:
        if ps.flavors:
            parts = []
            for r, fa in ps.flavors.items():
                how = fa.mode.name
                if fa.mode.name == "Preempt":
                    how = {"NoCandidates": "Preempt, no candidates", "Reclaim": "Preempt, reclaim only"}.get(
                        fa.preemption_mode.label, "Preempt")
                if fa.borrow:
                    how += ", borrows"
                parts.append(f"{r} {format_amount(r, ps.requests.get(r, 0))} → {fa.flavor} ({how})")
            out.append(Hanging(f"  {ps.name} ×{ps.count}: ", ", ".join(parts)))
        else:
            out.append(Text(f"  {ps.name} ×{ps.count}: no flavor"))
    if d.frs_need_preemption:
        out.append(Hanging("  needs preemption on: ", ", ".join(f"{r} in {f}" for f, r in d.frs_need_preemption)))
    return out


def _topology(d: PreemptDecision) -> list:
    """Topology-aware scheduling: where the workload lands (once the victims are gone), and the
    domains each victim frees."""
    held = [(v, t) for v in d.victims for t in v.topology]
    if not d.topology and not held:
        return []
    out = [Text("Topology" + (" (once the victims are gone)" if d.victims else ""), style="bold")]
    for t in d.topology:
        where = f"flavor {t.flavor}, topology {t.topology_name}" if t.topology_name else f"flavor {t.flavor}"
        out.append(Hanging(f"  {t.pod_set}: ", f"{t.mode} on {where}"))
        out.append(Hanging("    ", placement_text(t.assignment) if t.assignment is not None else t.reason or "-"))
    for v, t in held:
        if t.assignment is not None:
            out.append(Hanging(f"  {v.workload} frees: ", f"{t.pod_set}: {placement_text(t.assignment)}"))
    return out


def _freed(v) -> str:
    return ", ".join(f"{f.resource} {format_amount(f.resource, f.amount)} ({f.flavor})" for f in v.freed) or "-"


# 80 columns: who is preempted and why; --wide adds when it was admitted.
_VICTIM_COLUMNS = [Col("workload", ID), Col("ClusterQueue", ID), Col("priority", FIXED, "right"),
                   Col("admitted since", FIXED, wide=True), Col("resources freed", TEXT), Col("reason", FIXED)]


def _victims(d: PreemptDecision, view: View) -> list:
    if not d.victims:
        return []
    t = Sheet(_VICTIM_COLUMNS, view, title=f"Victims ({len(d.victims)})")
    for v in d.victims:
        t.add_row(v.workload + (" (evicting)" if v.evicted else ""), v.cluster_queue, str(v.priority),
                  v.admitted_since or "-", _freed(v), Text(v.reason, style=_REASON_STYLE.get(v.reason, "")))
    return [t]


def _attempts(d: PreemptDecision) -> list:
    out = []
    for i, at in enumerate(d.attempts, 1):
        how = "borrowing allowed" if at.allow_borrowing else "the workload must end within its nominal quota"
        if d.fair_sharing:
            how = "fair sharing"
        verdict = "a fitting set found" if at.fits else "no fitting set"
        if out:
            out.append(Text(""))
        out.append(Text(f"Candidates considered — run {i} ({how}): {verdict}", style="bold"))
        for n, s in enumerate(at.steps, 1):
            label = Text(f"  {n:>2}. ")
            label.append(f"{s.action:<9}", style=_ACTION_STYLE.get(s.action, ""))
            line = Text(f"{s.workload} ({s.cluster_queue}, priority {s.priority}"
                        + (f", admitted {s.admitted_since}" if s.admitted_since else "") + ")")
            if s.reason and s.action in ("removed", "kept"):
                line.append(" → ")
                line.append(s.reason, style=_REASON_STYLE.get(s.reason, ""))
            out.append(Hanging(label.append(" "), line))
            out.append(Hanging(" " * 16, Text(s.detail, style="dim")))
        if not at.steps:
            out.append(Text("  (no candidate)"))
        for s in at.shortfall:
            r = s.resource
            out.append(Hanging("  still short: ", f"{r} in flavor {s.flavor}: needs {format_amount(r, s.request)}, "
                               f"{format_amount(r, s.available)} available"
                               + ("" if at.allow_borrowing else
                                  f", nominal headroom {_signed(r, s.nominal_headroom)}")))
    return out


def _signed(resource: str, v: int) -> str:
    return format_amount(resource, v) if v >= 0 else "-" + format_amount(resource, -v)


def _excluded(d: PreemptDecision) -> list:
    if not d.excluded:
        return []
    total = sum(len(x.workloads) for x in d.excluded)
    out = [Text(f"Not candidates ({total})", style="bold")]
    for x in d.excluded:
        names = ", ".join(x.workloads[:_MAX_EXCLUDED_NAMES])
        more = f", … {len(x.workloads) - _MAX_EXCLUDED_NAMES} more" if len(x.workloads) > _MAX_EXCLUDED_NAMES else ""
        out.append(Hanging("  - ", f"{x.why}: {names}{more}"))
    return out


_USAGE_COLUMNS = [Col("node", ID), Col("resource", ID), Col("quota", FIXED, "right"), Col("usage now", FIXED, "right"),
                  Col("usage after", FIXED, "right"), Col("available now", FIXED, "right"),
                  Col("available after evictions", FIXED, "right"), Col("", FIXED)]


def _usage(d: PreemptDecision, view: View) -> list:
    if not d.usage:
        return []
    title = "Resulting usage (victims gone, workload admitted)" if d.victims else "Resulting usage (workload admitted)"
    t = Sheet(_USAGE_COLUMNS, view, title=title)
    for u in d.usage:
        r = u.resource
        node = ("cohort " if u.kind == "Cohort" else "") + u.node
        t.add_row(node, f"{r} ({u.flavor})", format_amount(r, u.quota), format_amount(r, u.usage_before),
                  format_amount(r, u.usage_after), _signed(r, u.available_before), _signed(r, u.available_after),
                  "borrowing" if u.borrowing_after else "")
    return [t]


def _share(v: float | None) -> str:
    return "+Inf" if v is None else f"{v:g}"


def _shares(d: PreemptDecision, view: View) -> list:
    if not d.shares:
        return []
    t = Sheet([Col("node", ID), Col("share now", FIXED, "right"), Col("after", FIXED, "right")], view)
    for s in d.shares:
        t.add_row(("cohort " if s.kind == "Cohort" else "") + s.node, _share(s.before), _share(s.after))
    return [Text("Fair-sharing shares (weighted, per mille)", style="bold"), t]


def _blocking(d: PreemptDecision) -> list:
    b = d.blocking
    if b is None or b.rule == "Fits":
        return []
    return [Text("Why nothing is preempted", style="bold"), Hanging(f"  {b.rule}: ", b.message)]


def renderables(d: PreemptDecision, view: View) -> list:
    return sectioned((_heading(d), _verdict(d), _assignment(d), _victims(d, view), _topology(d), _blocking(d),
                      _attempts(d), _excluded(d), _usage(d, view), _shares(d, view)))


def render_plain(d: PreemptDecision, view: View = View()) -> str:
    return render_to_text(renderables(d, PLAIN_VIEW), plain=True)


def render_table(d: PreemptDecision, view: View = View()) -> str:
    return render_to_text(renderables(d, view), view=view)


register("preempt", "table", lambda x, view: under_first_line(render_table(outcome(x).result, view),
                                                               outcome(x).caveats, view))
register("preempt", "plain", lambda x, view: under_first_line(render_plain(outcome(x).result, view),
                                                               outcome(x).caveats))
