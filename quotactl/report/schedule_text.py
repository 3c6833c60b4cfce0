"""``quotactl schedule`` for humans: a cycle-by-cycle table, final usage bars per ClusterQueue
and cohort, and a summary line.  Rich on a terminal, plain text otherwise.  Formatting only."""

from __future__ import annotations

from rich.text import Text

from quotactl.kueue.amounts import format_amount
from quotactl.kueue.scheduler import ADMITTED, ScheduleResult, UsageRow
from quotactl.report.caveats import above
from quotactl.report.console import FIXED, ID, TEXT, Col, Sheet, View, plain_text, render_to_text
from quotactl.report.filter_note import shown_line
from quotactl.report.renderers import outcome, register

BAR = 20


def _flavors(fl: dict) -> str:
    return "; ".join(f"{ps}: " + ", ".join(f"{r}={f}" for r, f in rs.items()) for ps, rs in fl.items())


def _livelock_lines(r: ScheduleResult) -> list[str]:
    """Per flopping cohort tree: its period and the preemptions that make it flop."""
    out = []
    for t in r.livelock.trees:
        out.append(f"  {t.tree}: repeats every {t.period} cycle(s) from cycle {t.first_cycle}")
        out.extend(f"    {w}" for w in t.why)
    return out


def summary_line(r: ScheduleResult) -> str:
    if r.livelock is not None:
        end = (f"LIVELOCK: Kueue would flop forever (period {r.livelock.period} cycles) on "
               + ", ".join(r.livelock.workloads))
    elif r.stopped == "cycles":
        end = f"stopped after {r.cycles_run} cycle(s) as asked"
    elif r.stopped == "limit":
        end = "no fixpoint within the cycle limit"
    else:
        end = f"fixpoint after {r.cycles_run} cycle(s) (last change in cycle {r.last_change})"
    return (f"{len(r.admitted)} admitted, {len(r.preempted)} preempted, {len(r.pending)} pending; {end}"
            + (" [fair sharing]" if r.fair_sharing else "")
            + (f"\n{shown_line(r.shown, 'workloads')}" if r.shown is not None else ""))


def _bar(row: UsageRow) -> tuple[str, float]:
    cap = row.limit if row.limit is not None else max(row.nominal, row.usage)
    frac = row.usage / cap if cap else (1.0 if row.usage else 0.0)
    nominal_pos = min(BAR, round(BAR * row.nominal / cap)) if cap else 0
    filled = min(BAR, round(BAR * frac))
    cells = ["#" if i < filled else "." for i in range(BAR)]
    if 0 < nominal_pos < BAR:  # in the filled part too: where a borrowing queue's nominal quota ends
        cells[nominal_pos] = "|"
    return "[" + "".join(cells) + "]", frac


def quotas_from_status_line(r: ScheduleResult) -> str:
    return (f"quota in force: status.effectiveQuotas of {', '.join(r.quotas_from_status)} (Dynamic Quota "
            "Orchestration), not spec.resourceGroups")


def _usage_lines(r: ScheduleResult) -> list[tuple[str, str, str, str]]:
    out = []
    for row in r.usage:
        if not row.usage and not row.nominal:
            continue
        bar, _ = _bar(row)
        lim = "unlimited" if row.limit is None and row.kind == "ClusterQueue" else \
            (format_amount(row.resource, row.limit) if row.limit is not None else "-")
        label = ("nominal " if row.kind == "ClusterQueue" else "quota ") + format_amount(row.resource, row.nominal)
        out.append((f"{row.kind} {row.node}", f"{row.resource}/{row.flavor}", bar,
                    f"{format_amount(row.resource, row.usage)} used; {label}"
                    + (f"; max {lim}" if row.kind == "ClusterQueue" else "")))
    return out


def _events(r: ScheduleResult):
    for c in r.cycles:
        rows = []
        for a in c.admitted:
            rows.append(("admitted", a.workload, a.cluster_queue,
                         _flavors(a.flavors) + ("; borrowing" if a.borrowing else "")
                         + ("; its previous flavors" if a.kept_flavors else "")))
        for p in c.preempted:
            rows.append(("preempted", p.workload, p.cluster_queue, f"{p.reason}, by {p.by}"))
        for h in c.heads:
            if h.outcome == ADMITTED:
                continue
            detail = f"{h.reason or ''}: {h.message}".strip(": ")
            if h.kept_flavors:
                detail += f" (kept its previous flavors, no flavor scan: {_flavors(h.kept_flavors)})"
            rows.append((h.outcome.lower(), h.workload, h.cluster_queue, detail))
        yield c.number, rows


def render_plain(r: ScheduleResult) -> str:
    lines = []
    for n, rows in _events(r):
        lines.append(f"cycle {n}:" + ("" if rows else " (no heads)"))
        for what, wl, cq, detail in rows:
            lines.append(f"  {what:<12} {wl} [{cq}] {detail}")
    if r.pending:
        lines.append("still pending:")
        for p in r.pending:
            lines.append(f"  {p.workload} [{p.cluster_queue or '-'}] {p.reason}: {p.message}")
    if r.livelock is not None:
        lines.append("livelock:")
        lines.extend(_livelock_lines(r))
    if r.quotas_from_status:
        lines.append(quotas_from_status_line(r))
    lines.append("final usage:")
    for node, fr, bar, text in _usage_lines(r):
        lines.append(f"  {node:<28} {fr:<24} {bar} {text}")
    lines.append(summary_line(r))
    return plain_text(lines)


_EVENT_STYLE = {"admitted": "green", "preempted": "red", "preempting": "yellow", "skipped": "yellow",
                "deferred": "yellow"}


def render_table(r: ScheduleResult, view: View = View()) -> str:
    t = Sheet([Col("cycle", FIXED, "right"), Col("event", FIXED), Col("workload", ID), Col("ClusterQueue", ID),
               Col("detail", TEXT, ratio=3)], view, title="Scheduling cycles")
    for n, rows in _events(r):
        for what, wl, cq, detail in rows:
            t.add_row(str(n), Text(what, style=_EVENT_STYLE.get(what, "dim")), wl, cq, detail)
    p = Sheet([Col("workload", ID), Col("ClusterQueue", ID), Col("reason", FIXED), Col("message", TEXT, ratio=3)],
              view, title="Still pending")
    for w in r.pending:
        p.add_row(w.workload, w.cluster_queue or "-", w.reason, w.message)
    u = Sheet([Col("node", ID), Col("resource/flavor", ID), Col("usage", FIXED), Col("used / quota", TEXT)], view,
              title="Final usage")
    for node, fr, bar, text in _usage_lines(r):
        u.add_row(node, fr, bar, text)
    parts: list = [t]
    if r.pending:
        parts.append(p)
    if r.livelock is not None:
        parts.append(Text("Livelock:\n" + "\n".join(_livelock_lines(r)), style="bold red"))
    if r.quotas_from_status:
        parts.append(Text(quotas_from_status_line(r)))
    parts += [u, Text(summary_line(r), style="bold")]
    return render_to_text(parts, view=view)


register("schedule", "table",
         lambda x, view: above(render_table(outcome(x).result, view), outcome(x).caveats, view))
register("schedule", "plain", lambda x, view: above(render_plain(outcome(x).result), outcome(x).caveats))
