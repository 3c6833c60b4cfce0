"""The time series of a simulation as charts: pending workloads and usage of nominal quota over
time, for the whole cluster (and, when asked, per ClusterQueue).

``series`` turns the engine's samples (one per ClusterQueue per instant that changed it) into
step functions read at evenly spaced times; ``terminal_plot`` draws them with plotext (imported
only here, only when a plot is drawn).  The HTML report draws the same ``Chart`` data."""

from __future__ import annotations

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


class _Changes:
    """Step functions as changes in time: pending workloads and quota in use (absolute amounts,
    per resource), from the samples of one or more ClusterQueues."""

    def __init__(self):
        self.by_time: dict[int, list] = {}  # t -> [pending change, {resource: used change}]

    def add_queue(self, samples, nominal: dict) -> None:
        last_at: dict[int, object] = {}
        for s in samples:  # several samples at one instant: the last is the state after it
            last_at[s.at] = s
        pending, used = 0, {}
        for t in sorted(last_at):
            s = last_at[t]
            now = {res: frac * nominal.get(res, 0) for res, frac in s.usage if frac is not None}
            row = self.by_time.setdefault(t, [0, {}])
            row[0] += s.pending - pending
            for res in set(now) | set(used):
                row[1][res] = row[1].get(res, 0) + now.get(res, 0) - used.get(res, 0)
            pending, used = s.pending, now

    def binned(self, end: int, bins: int) -> tuple[list[int], list[dict]]:
        """Per bin of [0, end]: the peak of pending workloads (a short queue is not lost between two
        readings) and the time-averaged quota in use."""
        times = sorted(self.by_time)
        edges = [end * i // bins for i in range(bins + 1)] if end > 0 else [0, 0]
        peaks, averages = [], []
        pending, used, j = 0, {}, 0

        def apply(t):
            nonlocal pending
            dp, du = self.by_time[t]
            pending += dp
            for res, d in du.items():
                used[res] = used.get(res, 0) + d

        for lo, hi in zip(edges, edges[1:], strict=False):
            while j < len(times) and times[j] <= lo:
                apply(times[j])
                j += 1
            peak, area, last = pending, {res: 0.0 for res in used}, lo
            while j < len(times) and times[j] < hi:
                for res, v in used.items():
                    area[res] = area.get(res, 0.0) + v * (times[j] - last)
                last = times[j]
                apply(times[j])
                peak = max(peak, pending)
                j += 1
            for res, v in used.items():
                area[res] = area.get(res, 0.0) + v * (hi - last)
            peaks.append(peak)
            averages.append({res: a / (hi - lo) for res, a in area.items()} if hi > lo else dict(used))
        return peaks, averages


def _percent(averages: list[dict], quota: dict, resource: str) -> tuple:
    n = quota.get(resource, 0)
    return tuple(round(100 * a.get(resource, 0) / n, 2) if n else 0 for a in averages)


def _summed(nominal: dict, names) -> dict:
    out: dict = {}
    for cq in names:
        for res, n in nominal.get(cq, {}).items():
            out[res] = out.get(res, 0) + n
    return out


def charts(r: SimulationResult, per_queue: bool = False) -> list[Chart]:
    """Pending and usage over the run, for the cluster; with ``per_queue`` also for the busiest
    ClusterQueues (at most MAX_QUEUES, by peak pending, then name).  Usage is of the
    ClusterQueues' nominal quota (quota a Cohort holds itself is not in it: borrowing it shows
    above 100%)."""
    unit, size = time_unit(r.end)
    bins = POINTS if r.end > 0 else 1
    times = tuple(round(r.end * i // bins / size, 4) for i in range(bins))
    total = _Changes()
    for cq, samples in r.series.items():
        total.add_queue(samples, r.nominal.get(cq, {}))
    peaks, averages = total.binned(r.end, bins)
    quota = _summed(r.nominal, r.nominal)
    resources = sorted(res for res, n in quota.items() if n)
    out = [Chart("Pending workloads (cluster, peak)", unit, times, (Line("pending", tuple(peaks)),), "workloads"),
           Chart("Usage of nominal quota (cluster, %)", unit, times,
                 tuple(Line(res, _percent(averages, quota, res)) for res in resources), "%")]
    if per_queue and r.series:
        out += _per_queue(r, unit, times, bins)
    return out


def _per_queue(r: SimulationResult, unit: str, times: tuple, bins: int) -> list[Chart]:
    binned = {}
    for cq, samples in r.series.items():
        one = _Changes()
        one.add_queue(samples, r.nominal.get(cq, {}))
        binned[cq] = one.binned(r.end, bins)
    busiest = sorted(sorted(binned, key=lambda cq: (-max(binned[cq][0], default=0), cq))[:MAX_QUEUES])
    first = {cq: next((res for res, n in sorted(r.nominal.get(cq, {}).items()) if n), None) for cq in busiest}
    return [Chart("Pending workloads per ClusterQueue (peak)", unit, times,
                  tuple(Line(cq, tuple(binned[cq][0])) for cq in busiest), "workloads"),
            Chart("Usage of nominal quota per ClusterQueue (%, first resource)", unit, times,
                  tuple(Line(f"{cq} {first[cq]}" if first[cq] else cq,
                             _percent(binned[cq][1], r.nominal.get(cq, {}), first[cq]) if first[cq] else (0,) * bins)
                        for cq in busiest), "%")]


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
