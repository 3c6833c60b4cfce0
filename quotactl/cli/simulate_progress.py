"""``simulate``'s side outputs: the progress bar on stderr while the clock runs, and ``--html``.

The bar shows only on a terminal: never when stderr is piped, and not for ``-o json`` whose
stdout is piped (a script is reading).  The engine never prints: it calls ``progress(now,
events_left)`` after every instant, and the bar redraws at most ten times a second."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from quotactl.cli.common import fail_usage

REDRAW_SECONDS = 0.1


def progress_wanted(fmt: str) -> bool:
    if not sys.stderr.isatty() or os.environ.get("TERM") == "dumb":
        return False
    return fmt != "json" or sys.stdout.isatty()


@contextmanager
def progress_bar(fmt: str) -> Iterator[Callable[[int, int], None] | None]:
    """A ``progress`` callback for ``simulate`` (None when no bar is wanted)."""
    if not progress_wanted(fmt):
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from quotactl.report.durations import human_duration

    bar = Progress(TextColumn("simulating"), BarColumn(), TextColumn("{task.fields[clock]}"), TimeElapsedColumn(),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task("simulate", total=None, clock="t0")
    state = {"instants": 0, "shown": 0.0}

    def progress(now: int, events_left: int) -> None:
        state["instants"] += 1
        tick = time.monotonic()
        if tick - state["shown"] < REDRAW_SECONDS:
            return
        state["shown"] = tick
        done = state["instants"]
        # the total grows as admissions schedule completions: instants done + events still queued
        bar.update(task, completed=done, total=done + events_left, clock=f"t0+{human_duration(now)}")

    with bar:
        yield progress


def write_html(path: str, result, opts) -> None:
    from quotactl.report.simulate_html import render_html

    try:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(render_html(result, opts))
    except OSError as exc:
        fail_usage(f"--html {path}: {exc.strerror or exc}")
