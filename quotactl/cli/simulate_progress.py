"""``simulate``'s side outputs: the progress bar on stderr while the clock runs, and ``--html``.

The bar shows only on a terminal: never when stderr is piped, and not for ``-o json``/``yaml``
whose stdout is piped (a script is reading).  The engine never prints: it calls ``progress(now,
events_left, horizon)`` after every instant (with ``--jobs``, the parent passes the merged clock
of its forked parts every poll), and the bar redraws at most ten times a second: the virtual
time, the share of the run done and an ETA (``ProgressModel``)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from quotactl.cli.common import fail_usage

REDRAW_SECONDS = 0.1
STEPS = 1000  # the bar's resolution


def progress_wanted(document: bool) -> bool:
    """``document``: the output is -o json/yaml, which a script reads when stdout is piped."""
    if not sys.stderr.isatty() or os.environ.get("TERM") == "dumb":
        return False
    return not document or sys.stdout.isatty()


class ProgressModel:
    """What the bar shows, from reports that may go back: the merged clock of forked parts is the
    earliest running part's, so it drops when a part starts late, and a run that falls back to
    one process starts again at t0.  Shown: the furthest virtual time reached, the share done
    (virtual time over the end: --until, else the latest event queued so far; never shrinking,
    below 100% until the run ends) and the wall time left at the rate so far."""

    def __init__(self, until: int | None, started: float):
        self.until, self.started = until, started
        self.now = 0
        self.fraction = 0.0

    def update(self, now: int, horizon: int) -> None:
        self.now = max(self.now, now)
        end = horizon if self.until is None else min(self.until, max(horizon, self.now))
        if end > 0:
            self.fraction = max(self.fraction, min(self.now / end, 0.999))

    def eta(self, wall: float) -> float | None:
        """Seconds of wall time left (None until some progress is made)."""
        if self.fraction <= 0:
            return None
        return (wall - self.started) * (1 - self.fraction) / self.fraction


def eta_text(seconds: float | None) -> str:
    if seconds is None:
        return "ETA -"
    s = int(seconds + 0.5)
    return f"ETA {s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


@contextmanager
def progress_bar(document: bool, until: int | None = None) -> Iterator[Callable[[int, int, int], None] | None]:
    """A ``progress`` callback for ``simulate`` (None when no bar is wanted); ``until``: --until
    in microseconds from t0."""
    if not progress_wanted(document):
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

    from quotactl.report.durations import human_duration

    bar = Progress(TextColumn("simulating"), BarColumn(), TaskProgressColumn(), TextColumn("{task.fields[clock]}"),
                   TextColumn("{task.fields[eta]}"), console=Console(stderr=True), transient=True)
    task = bar.add_task("simulate", total=STEPS, clock="t0", eta=eta_text(None))
    model = ProgressModel(until, time.monotonic())
    shown = [0.0]

    def progress(now: int, events_left: int, horizon: int) -> None:
        model.update(now, horizon)
        tick = time.monotonic()
        if tick - shown[0] < REDRAW_SECONDS:
            return
        shown[0] = tick
        bar.update(task, completed=int(model.fraction * STEPS), clock=f"t0+{human_duration(model.now)}",
                   eta=eta_text(model.eta(tick)))

    with bar:
        yield progress


def write_html(path: str, result, opts) -> None:
    from quotactl.report.simulate_html import render_html

    try:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(render_html(result, opts))
    except OSError as exc:
        fail_usage(f"--html {path}: {exc.strerror or exc}")
