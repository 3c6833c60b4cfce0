"""``simulate``'s human report: snapshots of the rich tables and of the plain lines (with the plot)
at 80 and 200 columns, and what must hold at any width."""

from __future__ import annotations

import re

import pytest

from quotactl.report.durations import human_duration
from quotactl.report.simulate_plot import PlotOptions
from quotactl.report.simulate_text import render_plain, render_table
from quotactl.simulate.clock import US
from tests.simulate.report_world import small_result

ANSI = re.compile(r"\x1b\[")


@pytest.fixture(scope="module")
def result():
    return small_result()


@pytest.mark.parametrize("width", [80, 200])
def test_table_snapshot(result, width, snapshot):
    assert render_table(result, PlotOptions(), width=width) == snapshot


@pytest.mark.parametrize("width", [80, 200])
def test_plain_snapshot(result, width, snapshot):
    assert render_plain(result, PlotOptions(), width=width) == snapshot


@pytest.mark.parametrize("width", [80, 120, 200])
def test_no_line_wider_than_the_terminal(result, width):
    for text in (render_table(result, PlotOptions(per_queue=True), width=width),
                 render_plain(result, PlotOptions(per_queue=True), width=width)):
        lines = text.splitlines()
        plot_start = next(i for i, line in enumerate(lines) if "Pending workloads" in line)
        assert max(len(line) for line in lines[plot_start:]) <= width  # the plot is drawn to the width


@pytest.mark.parametrize("width", [80, 200])
def test_every_number_is_in_the_tables(result, width):
    text = render_table(result, PlotOptions(plot=False), width=width)
    assert "team-b-with-a-rather-l" in text  # a long name folds, it is never cut with an ellipsis
    assert "…" not in text
    for needle in ("InClusterQueue", "1m50s", "85.8%", "51.1%", "53.3s", "36.7s"):
        assert needle in text, needle


def test_plain_has_no_escape_codes_and_the_plot_unless_asked_not_to(result):
    text = render_plain(result, PlotOptions(), width=100)
    assert not ANSI.search(text) and "Pending workloads (cluster, peak)" in text
    assert "Usage of nominal quota (cluster, %)" in text
    bare = render_plain(result, PlotOptions(plot=False), width=100)
    assert "Pending workloads" not in bare and bare.startswith("simulated 7 workload(s)")


def test_colour_only_when_asked(result):
    assert ANSI.search(render_table(result, PlotOptions(), color=True, width=100))
    assert not ANSI.search(render_table(result, PlotOptions(), color=False, width=100))


def test_per_queue_plot_names_the_queues(result):
    text = render_plain(result, PlotOptions(per_queue=True), width=120)
    assert "Pending workloads per ClusterQueue (peak)" in text and "team-a" in text.split("per ClusterQueue")[1]


def test_same_bytes_every_time(result):
    assert render_plain(result, PlotOptions(per_queue=True), width=90) == render_plain(small_result(),
                                                                                       PlotOptions(per_queue=True),
                                                                                       width=90)


@pytest.mark.parametrize("seconds, text", [(0, "0s"), (0.25, "0.25s"), (53.3333, "53.3s"), (90, "1m30s"),
                                           (3600, "1h"), (3700, "1h1m"), (93605, "1d2h"), (-120, "-2m")])
def test_human_duration(seconds, text):
    assert human_duration(round(seconds * US)) == text
