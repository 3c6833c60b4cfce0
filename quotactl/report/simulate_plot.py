"""The time series of a simulation as charts: pending workloads and usage of nominal quota over
time, for the whole cluster (and, when asked, per ClusterQueue).

``series`` turns the engine's samples (one per ClusterQueue per instant that changed it) into
step functions read at evenly spaced times; ``terminal_plot`` draws them with plotext (imported
only here, only when a plot is drawn).  The HTML report draws the same ``Chart`` data."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from quotactl.simulate.clock import US
from quotactl.simulate.result import SimulationResult

POINTS = 200  # readings per line: more than a terminal or a page can show, bounded at any scale
MAX_QUEUES = 8  # per-ClusterQueue lines drawn at most (the busiest by peak pending)
PLOT_HEIGHT = 30


@dataclass(frozen=True)
class PlotOptions:
    """What the command line asked of the charts (the report's context)."""

    plot: bool = True  # --no-plot turns it off
    per_queue: bool = False  # --plot-per-queue
    html: str | None = None  # --html FILE


@dataclass(frozen=True)
class Line:
    label: str
    values: tuple  # one per time of the chart


@dataclass(frozen=True)
class Chart:
    title: str
    unit: str  # the time unit of ``times`` (s, min, h, d)
    times: tuple  # in ``unit`` since t0
    lines: tuple[Line, ...]
    y_label: str


def time_unit(end_us: int) -> tuple[str, int]:
    """The unit that keeps the time axis readable: (name, microseconds per unit)."""
    for name, size in (("d", 86400 * US), ("h", 3600 * US), ("min", 60 * US)):
        if end_us >= 3 * size:
            return name, size
    return "s", US


def _grid(end: int) -> list[int]:
    if end <= 0:
        return [0]
    return [end * i // (POINTS - 1) for i in range(POINTS)]


class _Steps:
    """One ClusterQueue's samples as step functions (the value of the last sample at or before t)."""

    def __init__(self, samples):
        self.times = [s.at for s in samples]
        self.pending = [s.pending for s in samples]
        self.usage = [dict(s.usage) for s in samples]

    def index(self, t: int) -> int:
        return bisect.bisect_right(self.times, t) - 1

    def pending_at(self, t: int) -> int:
        i = self.index(t)
        return self.pending[i] if i >= 0 else 0

    def usage_at(self, t: int) -> dict:
        i = self.index(t)
        return self.usage[i] if i >= 0 else {}


def _total_usage(steps: dict, nominal: dict, t: int) -> dict:
    """resource -> percent of the cluster's nominal quota in use at t (sum used / sum nominal)."""
    used: dict = {}
    quota: dict = {}
    for cq, st in steps.items():
        per = nominal.get(cq, {})
        for res, frac in st.usage_at(t).items():
            n = per.get(res, 0)
            if frac is not None and n:
                used[res] = used.get(res, 0) + frac * n
        for res, n in per.items():
            quota[res] = quota.get(res, 0) + n
    return {res: round(100 * used.get(res, 0) / n, 2) for res, n in sorted(quota.items()) if n}


def charts(r: SimulationResult, per_queue: bool = False) -> list[Chart]:
    """Pending and usage over the run, for the cluster; with ``per_queue`` also for the busiest
    ClusterQueues (at most MAX_QUEUES, by peak pending, then name)."""
    unit, size = time_unit(r.end)
    grid = _grid(r.end)
    times = tuple(round(t / size, 4) for t in grid)
    steps = {cq: _Steps(samples) for cq, samples in r.series.items()}
    pending = tuple(sum(st.pending_at(t) for st in steps.values()) for t in grid)
    usage_rows = [_total_usage(steps, r.nominal, t) for t in grid]
    resources = sorted({res for row in usage_rows for res in row})
    out = [Chart("Pending workloads (cluster)", unit, times, (Line("pending", pending),), "workloads"),
           Chart("Usage of nominal quota (cluster, %)", unit, times,
                 tuple(Line(res, tuple(row.get(res, 0) for row in usage_rows)) for res in resources), "%")]
    if per_queue and steps:
        busiest = sorted(steps, key=lambda cq: (-max(steps[cq].pending, default=0), cq))[:MAX_QUEUES]
        out.append(Chart("Pending workloads per ClusterQueue", unit, times,
                         tuple(Line(cq, tuple(steps[cq].pending_at(t) for t in grid)) for cq in sorted(busiest)),
                         "workloads"))
        out.append(Chart("Usage of nominal quota per ClusterQueue (%, first resource)", unit, times,
                         tuple(Line(cq, tuple(_first_usage(steps[cq], t) for t in grid)) for cq in sorted(busiest)),
                         "%"))
    return out


def _first_usage(st: _Steps, t: int) -> float:
    """The ClusterQueue's first resource with a nominal quota, in percent (0 when it has none)."""
    for _res, frac in sorted(st.usage_at(t).items()):
        if frac is not None:
            return round(100 * frac, 2)
    return 0


MARKERS = ("*", "+", "o", "x", "#", "@", "%", "=")


def terminal_plot(chart_list: list[Chart], width: int, color: bool) -> str:
    """The charts one above the other, ``width`` columns wide; without ``color`` no escape codes."""
    import plotext  # only when a plot is drawn

    plotext.terminal.limit(False, False)  # our width and height, whatever the terminal's size
    fig = plotext.figure
    fig.clear()
    if len(chart_list) > 1:
        fig.subplots(len(chart_list), 1)
    for row, chart in enumerate(chart_list, 1):
        sub = fig.subplot(row, 1) if len(chart_list) > 1 else fig
        for i, line in enumerate(chart.lines):
            sig = sub.signal(list(chart.times), list(line.values), marker=MARKERS[i % len(MARKERS)])
            sig.label(line.label)
            sig.lines()
            sub.draw(sig)
        if len(chart.lines) == 1:
            sub.legend(active=False)  # the title names the one line; the box would hide its start
        sub.title(chart.title)
        sub.label(f"time since t0 ({chart.unit})", "x")
    fig.plot_size(width, PLOT_HEIGHT // 2 * len(chart_list))
    fig.theme("simple" if color else "colorless")  # simple: colours, no background
    text = fig.build().string(colorless=not color)
    fig.clear()
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
