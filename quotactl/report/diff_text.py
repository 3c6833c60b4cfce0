"""``quotactl diff`` for humans (rich on a terminal, plain otherwise).  Formatting only."""

from __future__ import annotations

from rich.text import Text

from quotactl.kueue.amounts import format_amount
from quotactl.kueue.diff import DiffResult
from quotactl.report.caveats import above
from quotactl.report.console import FIXED, ID, TEXT, Col, Sheet, View, plain_text, render_to_text
from quotactl.report.filter_note import shown_line
from quotactl.report.renderers import register

TITLES = {"losesAdmission": "loses admission", "newlyPreempted": "newly preempted",
          "newlyAdmitted": "newly admitted", "moved": "moved", "noLongerPreempted": "no longer preempted"}


def _amt(res: str, v: int | None) -> str:
    return "-" if v is None else (format_amount(res, v) if res != "*" else str(v))


def summary_line(d: DiffResult, failed: tuple[str, ...] = ()) -> str:
    s = (f"{len(d.starvation)} lose admission, {len(d.evictions)} newly preempted, "
         f"{len(d.of_kind('newlyAdmitted'))} newly admitted, {len(d.of_kind('moved'))} moved; "
         f"{len(d.capacity)} capacity change(s)")
    for side, r in (("base", d.base), ("head", d.head)):
        if r.livelock is not None:
            s += f"; {side} livelocks on " + ", ".join(r.livelock.workloads)
    if failed:
        s += "; FAILED: " + ", ".join(failed)
    if d.shown is not None:
        s += "\n" + shown_line(d.shown, "workload changes")
    return s


def render_plain(d: DiffResult, failed: tuple[str, ...] = ()) -> str:
    lines = ["workloads:" if d.workloads else "workloads: no change"]
    for w in d.workloads:
        lines.append(f"  {TITLES.get(w.kind, w.kind):<20} {w.workload}: {w.before} -> {w.after}"
                     + (f" [{w.detail}]" if w.detail else ""))
    if d.capacity:
        lines.append("capacity:")
        for c in d.capacity:
            lines.append(f"  {c.kind} {c.node} {c.resource}/{c.flavor} {c.field}: "
                         f"{_amt(c.resource, c.before)} -> {_amt(c.resource, c.after)}")
    if d.usage:
        lines.append("usage at the fixpoint (before -> after):")
        for u in d.usage:
            mark = "" if u.before == u.after else "  *"
            lines.append(f"  {u.kind} {u.node} {u.resource}/{u.flavor}: "
                         f"{format_amount(u.resource, u.before)} -> {format_amount(u.resource, u.after)}{mark}")
    lines.append(summary_line(d, failed))
    return plain_text(lines)


_CHANGE_STYLE = {"losesAdmission": "red", "newlyPreempted": "red", "newlyAdmitted": "green", "moved": "yellow"}


def render_table(d: DiffResult, failed: tuple[str, ...] = (), view: View = View()) -> str:
    # 80 columns: before and after share a column; --wide: one each
    w = Sheet([Col("change", TEXT), Col("workload", ID), Col("before → after", TEXT, ratio=2, wide=False),
               Col("before", TEXT, wide=True), Col("after", TEXT, wide=True), Col("detail", TEXT)], view,
              title="Workloads")
    for c in d.workloads:
        w.add_row(Text(TITLES.get(c.kind, c.kind), style=_CHANGE_STYLE.get(c.kind, "")), c.workload,
                  f"{c.before}\n→ {c.after}", c.before, c.after, c.detail)
    cap = Sheet([Col("node", ID), Col("resource/flavor", ID), Col("field", FIXED), Col("before", FIXED, "right"),
                 Col("after", FIXED, "right")], view, title="Capacity")
    for c in d.capacity:
        cap.add_row(f"{c.kind} {c.node}", f"{c.resource}/{c.flavor}", c.field, _amt(c.resource, c.before),
                    _amt(c.resource, c.after))
    u = Sheet([Col("node", ID), Col("resource/flavor", ID), Col("before", FIXED, "right"),
               Col("after", FIXED, "right")], view, title="Usage at the fixpoint")
    for r in d.usage:
        u.add_row(f"{r.kind} {r.node}", f"{r.resource}/{r.flavor}", format_amount(r.resource, r.before),
                  Text(format_amount(r.resource, r.after), style="" if r.before == r.after else "bold"))
    return render_to_text([w, cap, u, Text(summary_line(d, failed), style="bold")], view=view)


register("diff", "table", lambda o, view: above(render_table(o.result, o.context, view), o.caveats, view))
register("diff", "plain", lambda o, view: above(render_plain(o.result, o.context), o.caveats))
