"""``quotactl simulate`` for people: a summary of the run, a table per ClusterQueue and per class
(admitted, finished, preemptions by reason, lost work, wait mean / p50 / p95 / max, usage of
nominal quota), then a plot of pending workloads and usage over time.  Rich tables on a terminal,
plain lines when piped (the plot too, in plain characters).  Formatting only: user names go into
Text objects, never through rich markup."""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text

from quotactl.report.caveats import above
from quotactl.report.console import View, glued, render_to_text
from quotactl.report.durations import human_duration
from quotactl.report.filter_note import shown_line
from quotactl.report.renderers import Outcome, outcome, register
from quotactl.report.simulate_plot import PlotOptions, charts, terminal_plot
from quotactl.simulate.clock import US, rfc3339
from quotactl.simulate.result import ClassStats, QueueStats, SimulationResult, WaitStats

WAIT_COLUMNS = ("wait mean", "p50", "p95", "max")


def terminal_width() -> int:
    """COLUMNS, else the terminal's width, else 120 (piped): as report/console.py reads it."""
    import shutil

    return max(60, shutil.get_terminal_size((120, 24)).columns)


def _secs(x: float | None) -> str:
    """Seconds (the statistics' unit) as a duration."""
    return "-" if x is None else human_duration(round(x * US))


def wait_cells(w: WaitStats) -> list[str]:
    return [_secs(w.mean), _secs(w.p50), _secs(w.p95), _secs(w.max)]


def usage_text(usage: dict) -> str:
    return ", ".join(f"{res} {'-' if v is None else f'{v:.1%}'}" for res, v in usage.items()) or "-"


def preemptions_text(q: QueueStats) -> str:
    if not q.preemptions:
        return "0"
    return f"{q.preemptions} (" + ", ".join(f"{k} {v}" for k, v in q.preemptions_by_reason.items()) + ")"


def _limit_texts(limits: dict) -> list[str]:
    """The cadence's harness limits (--cadence kueue-harness), as the summary names them."""
    out = []
    if "writeRate" in limits:
        out.append(f"writes {limits['writeRate']:g}/s (burst {limits['writeBurst']})")
    if "requeueBatch" in limits:
        out.append(f"requeue {human_duration(limits['requeueBatch'])} after a completion")
    if "createRate" in limits:
        out.append(f"creates {limits['createRate']:g}/s (burst {limits['createBurst']})")
    return out


def summary_line(r: SimulationResult) -> str:
    mode = "fixpoint at every event" if not r.cycle_interval else f"one cycle every {human_duration(r.cycle_interval)}"
    if r.admission_cost:
        mode += f", {human_duration(r.admission_cost)} per admission"
    mode += "".join(f", {text}" for text in _limit_texts(r.limits))
    simulated = r.shown.counts[0][2] if r.shown is not None else len(r.workloads)  # every workload ran
    line = (f"simulated {simulated} workload(s) from {rfc3339(r.start)} for {human_duration(r.end)} "
            f"({r.cycles} cycle(s), {mode}); stopped: {r.stopped}")
    extra = []
    if r.no_runtime:
        extra.append(f"{r.no_runtime} without a runtime never finish")
    if r.overdue:
        extra.append(f"{r.overdue} overdue finished at t0")
    if r.shown is not None:
        extra.append(shown_line(r.shown, "workloads") + "; the statistics count every workload")
    return line + (f"; {'; '.join(extra)}" if extra else "")


def livelock_line(r: SimulationResult) -> str | None:
    if r.livelock is None:
        return None
    return (f"livelock at t0+{human_duration(r.livelock_at)}: Kueue would flop forever on "
            f"{', '.join(r.livelock.workloads)} (period {r.livelock.period} cycles)")


# -- plain ------------------------------------------------------------------------------------

def _queue_line(q: QueueStats) -> str:
    mean, p50, p95, mx = wait_cells(q.wait)
    return (f"  {q.name}: admitted {q.admitted}, finished {q.finished}, preemptions {preemptions_text(q)}, "
            f"lost work {human_duration(q.lost_work)}, wait mean {mean} p50 {p50} p95 {p95} max {mx}, "
            f"usage of nominal quota {usage_text(q.usage)}, pending at end {q.pending_at_end}")


def _class_line(c: ClassStats) -> str:
    mean, p50, p95, mx = wait_cells(c.wait)
    return (f"  {c.name}: {c.workloads} workload(s), admitted {c.admitted}, finished {c.finished}, "
            f"wait mean {mean} p50 {p50} p95 {p95} max {mx}")


def _lifecycle_line(q) -> str:
    return (f"  {q.name}: reserved {q.reservations}, admitted {q.admitted}, waiting on checks {q.reserved_at_end}, "
            f"requeued {q.requeues}, deactivated {q.deactivated}")


def render_plain(r: SimulationResult, opts: PlotOptions = PlotOptions(), width: int | None = None) -> str:
    """One line per ClusterQueue and class (grep-able at any width), then the plot."""
    lines = [summary_line(r)]
    if (ll := livelock_line(r)) is not None:
        lines.append(ll)
    lines += ["", "ClusterQueues:"] + [_queue_line(q) for q in r.cluster_queues]
    if r.lifecycle_stats:
        lines += ["", "Admission checks and PodsReady:"] + [_lifecycle_line(q) for q in r.lifecycle_stats]
    if r.classes:
        lines += ["", "Classes:"] + [_class_line(c) for c in r.classes]
    text = "\n".join(lines) + "\n"
    if opts.plot and r.series:
        text += "\n" + terminal_plot(charts(r, opts.per_queue), width or terminal_width(), color=False)
    return text


# -- rich tables ------------------------------------------------------------------------------

def _table(title: str, first: str, min_width: int = 12) -> Table:
    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, header_style="bold", pad_edge=False)
    t.add_column(first, overflow="fold", ratio=2, min_width=min_width)  # names can be long: fold, never cut
    return t


ONE_TABLE_WIDTH = 130  # below this the ClusterQueue table splits in two (work, then waits)


def queue_tables(r: SimulationResult, width: int) -> list[Table]:
    """The ClusterQueue statistics: one table when wide, else one for the work and one for the
    waits and usage, so that no column is squeezed below its numbers at 80 columns."""
    work = ("admitted", "finished", "preempted", "lost work", "pending")
    if width >= ONE_TABLE_WIDTH:
        return [_queue_table("ClusterQueues", r, work + WAIT_COLUMNS, usage=True)]
    return [_queue_table("ClusterQueues", r, work, usage=False),
            _queue_table("ClusterQueues: time to admission, usage", r, WAIT_COLUMNS, usage=True)]


def _queue_table(title: str, r: SimulationResult, columns: tuple, usage: bool) -> Table:
    t = _table(title, "ClusterQueue")
    for col in columns:
        t.add_column(col, justify="right", no_wrap=True)
    if usage:
        t.add_column("usage of nominal", overflow="fold", ratio=1, min_width=10)
    for q in r.cluster_queues:
        cells = {"admitted": str(q.admitted), "finished": str(q.finished), "preempted": str(q.preemptions),
                 "lost work": human_duration(q.lost_work), "pending": str(q.pending_at_end),
                 **dict(zip(WAIT_COLUMNS, wait_cells(q.wait), strict=True))}
        t.add_row(Text(q.name), *(cells[c] for c in columns), *([glued(Text(usage_text(q.usage)))] if usage else []))
    return t


def reason_table(r: SimulationResult) -> Table | None:
    """Preemptions per ClusterQueue (of its workloads) and reason; None when there were none."""
    rows = [(q.name, reason, n) for q in r.cluster_queues for reason, n in q.preemptions_by_reason.items()]
    if not rows:
        return None
    t = _table("Preemptions by reason", "ClusterQueue")
    t.add_column("reason", overflow="fold")
    t.add_column("preempted", justify="right", no_wrap=True)
    for name, reason, n in rows:
        t.add_row(Text(name), Text(reason), str(n))
    return t


def lifecycle_table(r: SimulationResult) -> Table | None:
    """Admission checks and waitForPodsReady per ClusterQueue (when the run modelled them)."""
    if not r.lifecycle_stats:
        return None
    t = _table("Admission checks and PodsReady", "ClusterQueue")
    for col in ("reserved", "admitted", "waiting on checks", "requeued", "deactivated"):
        t.add_column(col, justify="right", no_wrap=True)
    for q in r.lifecycle_stats:
        t.add_row(Text(q.name), str(q.reservations), str(q.admitted), str(q.reserved_at_end), str(q.requeues),
                  str(q.deactivated))
    return t


def class_table(r: SimulationResult) -> Table:
    t = _table("Classes", "class", min_width=6)
    for col in ("workloads", "admitted", "finished", *WAIT_COLUMNS):
        t.add_column(col, justify="right", no_wrap=True)
    for c in r.classes:
        t.add_row(Text(c.name), str(c.workloads), str(c.admitted), str(c.finished), *wait_cells(c.wait))
    return t


def render_table(r: SimulationResult, opts: PlotOptions = PlotOptions(), color: bool = False,
                 width: int | None = None) -> str:
    width = width or terminal_width()
    parts: list = [Text(summary_line(r), style="bold")]
    if (ll := livelock_line(r)) is not None:
        parts.append(Text(ll, style="bold red"))
    parts += [Text("")] + queue_tables(r, width)
    if (reasons := reason_table(r)) is not None:
        parts.append(reasons)
    if (life := lifecycle_table(r)) is not None:
        parts.append(life)
    if r.classes:
        parts.append(class_table(r))
    text = render_to_text(parts, view=View(color=color, width=width))
    if opts.plot and r.series:
        text += "\n" + terminal_plot(charts(r, opts.per_queue), width, color=color)
    return text


def _unwrapped(x) -> tuple[SimulationResult, PlotOptions]:
    """The command passes ``Outcome(result, PlotOptions)``; a bare result gets the defaults."""
    if isinstance(x, Outcome):
        return x.result, x.context or PlotOptions()
    return x, PlotOptions()


def _table_renderer(x, view: View) -> str:
    r, opts = _unwrapped(x)
    return above(render_table(r, opts, color=view.color, width=view.width), outcome(x).caveats, view)


def _plain_renderer(x, view: View) -> str:
    r, opts = _unwrapped(x)
    return above(render_plain(r, opts, width=view.width), outcome(x).caveats)


register("simulate", "plain", _plain_renderer)
register("simulate", "table", _table_renderer)
