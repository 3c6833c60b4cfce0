"""``quotactl diff`` for humans (rich on a terminal, plain otherwise).  Formatting only."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from quotactl.kueue.amounts import format_amount
from quotactl.kueue.diff import DiffResult
from quotactl.report.console import render_to_text
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
    return "\n".join(lines) + "\n"


def render_table(d: DiffResult, failed: tuple[str, ...] = (), color: bool = True, width: int | None = None) -> str:
    w = Table(title="Workloads")
    for col in ("change", "workload", "before", "after", "detail"):
        w.add_column(col)
    style = {"losesAdmission": "red", "newlyPreempted": "red", "newlyAdmitted": "green", "moved": "yellow"}
    for c in d.workloads:
        w.add_row(Text(TITLES.get(c.kind, c.kind), style=style.get(c.kind, "")), c.workload, c.before, c.after,
                  c.detail)
    cap = Table(title="Capacity")
    for col in ("node", "resource/flavor", "field", "before", "after"):
        cap.add_column(col)
    for c in d.capacity:
        cap.add_row(f"{c.kind} {c.node}", f"{c.resource}/{c.flavor}", c.field, _amt(c.resource, c.before),
                    _amt(c.resource, c.after))
    u = Table(title="Usage at the fixpoint")
    for col in ("node", "resource/flavor", "before", "after"):
        u.add_column(col)
    for r in d.usage:
        u.add_row(f"{r.kind} {r.node}", f"{r.resource}/{r.flavor}", format_amount(r.resource, r.before),
                  Text(format_amount(r.resource, r.after), style="" if r.before == r.after else "bold"))
    return render_to_text([w, cap, u, Text(summary_line(d, failed), style="bold")], width=width, color=color)


register("diff", "table", lambda o, color: render_table(o.result, o.context, color=color))
register("diff", "plain", lambda o, color: render_plain(o.result, o.context))
