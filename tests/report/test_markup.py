"""Bracketed text in names and messages (``[bold]``, ``[x]``, ``requests[pods]``, ``<name>``)
prints as written in every renderer: table and plain (never read as rich markup), and json /
sarif / github (which never went through rich) unchanged."""

from __future__ import annotations

import json

import pytest

from quotactl.report.console import View, render_to_text
from tests.report.reports import capture, draw

DATA = "tests/report/data/brackets"
KUEUE = ["-f", f"{DATA}/cluster.yaml"]
TOKENS = ("[bold]", "[x]", "requests[pods]", "<name>")

COMMANDS = {
    "lint": ["lint", f"{DATA}/cluster.yaml"],
    "explain": ["explain", "team/pending[x]", *KUEUE],
    "explain-all": ["explain", "--all", *KUEUE],
    "preempt": ["preempt", "team/pending[x]", *KUEUE],
    "schedule": ["schedule", *KUEUE],
    "shares": ["shares", *KUEUE],
    "yunikorn-explain": ["explain", "team/pending[x]", "-f", f"{DATA}/queues.yaml", "-f", f"{DATA}/state.yaml"],
    "yunikorn-preempt": ["preempt", "team/pending[x]", "-f", f"{DATA}/queues.yaml", "-f", f"{DATA}/state.yaml"],
}


@pytest.fixture(scope="module")
def captured():
    return {name: capture(args) for name, args in COMMANDS.items()}


def _human(c) -> list[str]:
    """Plain, the table at 300 columns, and the --wide table at 80."""
    return [draw(c, "plain"), draw(c, "table", 300), draw(c, "table", 80, wide=True)]


def _shown(text: str) -> set[str]:
    return {t for t in TOKENS if t in text}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_brackets_survive_in_table_and_plain(captured, name):
    """Whatever bracketed names the JSON report holds, the table (at 80 and 300 columns, and
    --wide) and the plain report hold too."""
    expected = _shown(draw(captured[name], "json"))
    assert expected, f"{name}: the fixture shows no bracketed text"
    for out in _human(captured[name]):
        assert _shown(out) == expected


def test_yunikorn_queue_names_keep_brackets():
    """A queue named q[bold] with a property requests[pods] (every view; the tree lists the
    property)."""
    c = capture(["queues", f"{DATA}/queues.yaml"])
    for out in _human(c):
        assert "q[bold]" in out
    assert {"[bold]", "requests[pods]"} <= _shown(draw(c, "tree", 300))
    assert "memory 100G" in draw(c, "table", 300)  # as written, not 97656250Ki


def test_lint_machine_formats_keep_brackets(captured):
    for fmt in ("sarif", "github"):
        assert _shown(draw(captured["lint"], fmt)) == set(TOKENS), fmt
    doc = json.loads(draw(captured["lint"], "json"))
    assert any(d["object"] == "ClusterQueue/<name>-cq" for d in doc["diagnostics"])


def test_diff_keeps_brackets(tmp_path):
    """diff's tables: a head where cq[bold] has room for pending[x]."""
    from pathlib import Path

    from tests.helpers import ROOT

    base = ROOT / DATA / "cluster.yaml"
    head = tmp_path / "head.yaml"
    head.write_text(Path(base).read_text().replace("nominalQuota: 4", "nominalQuota: 12", 1))
    c = capture(["diff", "--base", str(base), "--head", str(head)])
    assert {"[x]", "[bold]"} <= _shown(draw(c, "json"))
    for out in _human(c):
        assert {"[x]", "[bold]"} <= _shown(out)


def test_schedule_usage_bars_are_drawn(captured):
    table = draw(captured["schedule"], "table", 120)
    assert "[####" in table or "[...." in table
    # cq[bold] holds 6 of its 4 cpu: a full bar, `|` where its nominal quota ends (4/6 of 20 cells)
    assert "[" + "#" * 13 + "|" + "#" * 6 + "]" in table


def test_rule_page_keeps_angle_brackets():
    c = capture(["rules", "KQ502"])
    assert "ClusterQueue <name>" in draw(c, "table", 120)
    assert "<name>" in draw(c, "plain")


def test_strings_are_never_markup():
    out = render_to_text(["[bold]x[/bold] requests[pods]", "[red]"], view=View(width=80))
    assert out == "[bold]x[/bold] requests[pods]\n[red]\n"
