"""Every human report drawn at 80 and 200 columns, with --wide, and plain (piped): snapshots
(syrupy), and the layout rules every one of them keeps: nothing wider than the terminal, headers
never split mid-word, plain output never wrapped and without trailing spaces."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from quotactl.report.console import PLAIN_ALIGN_CAP
from quotactl.report.renderers import outcome
from tests.report.reports import COMMANDS, capture, draw

TABLES = [(name, "table") for name in COMMANDS] + [("queues", "tree")]


@pytest.fixture(scope="module")
def captured():
    return {name: capture(args) for name, args in COMMANDS.items()}


@pytest.mark.parametrize("width", [80, 200])
@pytest.mark.parametrize(("name", "fmt"), TABLES, ids=[f"{n}-{f}" for n, f in TABLES])
def test_table_at_width(captured, name, fmt, width, snapshot):
    out = draw(captured[name], fmt, width)
    assert out == snapshot
    too_wide = [line for line in out.splitlines() if cell_len(line) > width]
    assert not too_wide, f"{name} at {width} columns: {too_wide[:3]}"


@pytest.mark.parametrize("name", list(COMMANDS))
def test_wide_view(captured, name, snapshot):
    out = draw(captured[name], "table", 80, wide=True)
    assert out == snapshot


@pytest.mark.parametrize("name", [n for n in COMMANDS if n not in ("rule",)])
def test_plain(captured, name, snapshot):
    out = draw(captured[name], "plain")
    assert out == snapshot
    assert all(line == line.rstrip() for line in out.splitlines()), f"{name}: trailing spaces"


@pytest.mark.parametrize(("name", "fmt"), TABLES, ids=[f"{n}-{f}" for n, f in TABLES])
def test_headers_never_split_mid_word(captured, name, fmt):
    """Every header word of every table shows whole at 80 columns (``resourc/e`` was the bug)."""
    from quotactl.report import console

    out = draw(captured[name], fmt, 80)
    words = {w for line in out.splitlines() for w in line.split()}
    for header in _headers(captured[name], fmt, console):
        for word in header.split():
            assert word in words, f"{name}: header word {word!r} split at 80 columns"


def _headers(captured, fmt, console):
    """The headers the report shows at 80 columns: a table's, or a record's labels (found by drawing
    it with the Sheets' layouts recorded)."""
    seen: list[str] = []
    real = console.Sheet._layout

    def record(self, con, options, rows):
        columns, cells, widths = real(self, con, options, rows)
        seen.extend(c.header for i, c in enumerate(columns) if widths or i and c.record == "labeled")
        return columns, cells, widths

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(console.Sheet, "_layout", record)
        draw(captured, fmt, 80)
    return seen


def test_wide_shows_more_columns_than_80(captured):
    narrow = draw(captured["explain-all"], "table", 80).splitlines()[0].split()
    wide = draw(captured["explain-all"], "table", 80, wide=True).splitlines()[0].split()
    assert "clusterQueue" in wide and "clusterQueue" not in narrow


def test_too_narrow_for_a_table_gives_one_record_per_row(captured):
    """At 40 columns explain --all is one record per workload: its id whole on a line of its own."""
    out = draw(captured["explain-all"], "table", 40).splitlines()
    assert all(cell_len(line) <= 40 for line in out)
    for e in outcome(captured["explain-all"][1]).result:
        assert e.workload.key in out
    assert any(line.startswith("  reason  ") for line in out)


@pytest.mark.parametrize("width", [80, 120])
def test_ids_are_never_truncated(captured, width):
    """Every workload id of explain --all is in the table, whole or folded (read back by joining
    the lines of the first column)."""
    out = draw(captured["explain-all"], "table", width).splitlines()
    assert not any("…" in line for line in out)
    end = out[0].index("reason")
    column = "".join(line[:end].strip() for line in out[2:])
    for e in outcome(captured["explain-all"][1]).result:
        assert e.workload.key in column


def test_plain_lines_are_not_wrapped_at_any_width():
    """A 300-character message stays on one line of the plain lint output and the plain tables."""
    from quotactl.diagnostics import Diagnostic, Severity
    from quotactl.lint.runner import LintReport
    from quotactl.report.console import ID, TEXT, Col, Sheet, plain_text

    message = " ".join(["word"] * 60)[:300]
    d = Diagnostic("KQ001", Severity.ERROR, message, "f.yaml", 1, 1, object="ClusterQueue/a", field="spec")
    out = draw(("lint", LintReport([d], 1, 1, "kueue")), "plain")
    assert any(message in line for line in out.splitlines())
    sheet = Sheet([Col("name", ID), Col("why", TEXT), Col("after", TEXT)])
    sheet.add_row("a", message, "tail")
    sheet.add_row("b", "short", "tail")
    lines = plain_text([sheet]).splitlines()
    assert lines[1].startswith("a     " + message) and lines[1].endswith("tail")
    assert len(lines) == 3
    assert lines[2].startswith("b     short")  # the long cell does not widen its column
    assert len(message) > PLAIN_ALIGN_CAP
