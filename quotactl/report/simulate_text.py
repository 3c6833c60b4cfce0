"""``quotactl simulate`` as text (plain, and the table format until rich tables replace it):
a summary of the run, one line per ClusterQueue and per class.  Pure formatting."""

from __future__ import annotations

from quotactl.report.renderers import register
from quotactl.simulate.clock import rfc3339, seconds
from quotactl.simulate.result import SimulationResult, WaitStats


def _num(x) -> str:
    return "-" if x is None else f"{x:g}"


def _wait(w: WaitStats) -> str:
    return f"wait mean {_num(w.mean)}s p50 {_num(w.p50)}s p95 {_num(w.p95)}s max {_num(w.max)}s"


def _usage(usage: dict) -> str:
    return ", ".join(f"{res} {'-' if v is None else f'{v:.1%}'}" for res, v in usage.items()) or "-"


def summary_line(r: SimulationResult) -> str:
    mode = "fixpoint at every event" if not r.cycle_interval else f"one cycle every {_num(seconds(r.cycle_interval))}s"
    line = (f"simulated {len(r.workloads)} workload(s) from {rfc3339(r.start)} to t0+{_num(seconds(r.end))}s "
            f"({r.cycles} cycle(s), {mode}); stopped: {r.stopped}")
    extra = []
    if r.no_runtime:
        extra.append(f"{r.no_runtime} without a runtime never finish")
    if r.overdue:
        extra.append(f"{r.overdue} overdue finished at t0")
    return line + (f"; {'; '.join(extra)}" if extra else "")


def render_plain(r: SimulationResult) -> str:
    lines = [summary_line(r)]
    if r.livelock is not None:
        lines.append(f"livelock at t0+{_num(seconds(r.livelock_at))}s: Kueue would flop forever on "
                     f"{', '.join(r.livelock.workloads)} (period {r.livelock.period} cycles)")
    lines.append("")
    lines.append("ClusterQueues:")
    for q in r.cluster_queues:
        reasons = ", ".join(f"{k} {v}" for k, v in q.preemptions_by_reason.items())
        lines.append(f"  {q.name}: admitted {q.admitted}, finished {q.finished}, preemptions {q.preemptions}"
                     f"{f' ({reasons})' if reasons else ''}, lost work {_num(seconds(q.lost_work))}s, "
                     f"{_wait(q.wait)}, usage of nominal quota {_usage(q.usage)}, pending at end {q.pending_at_end}")
    if r.classes:
        lines.append("")
        lines.append("Classes:")
        for c in r.classes:
            lines.append(f"  {c.name}: {c.workloads} workload(s), admitted {c.admitted}, finished {c.finished}, "
                         f"{_wait(c.wait)}")
    return "\n".join(lines) + "\n"


register("simulate", "plain", lambda result, color: render_plain(result))
register("simulate", "table", lambda result, color: render_plain(result))
