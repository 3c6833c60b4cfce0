"""End to end (a real subprocess, stdout piped): every command with a table takes --wide, and piped
human output is plain: no trailing spaces, no line wrapped because of the width."""

from __future__ import annotations

import pytest

from tests.helpers import run_subprocess
from tests.report.reports import COMMANDS

# one subprocess per command keeps this affordable; the renderers are covered in-process
PIPED = ["lint", "explain-all", "preempt", "schedule", "diff", "shares", "queues", "yunikorn-explain", "workload",
         "rules"]


@pytest.mark.parametrize("name", PIPED)
def test_piped_output_is_plain_and_takes_wide(name):
    plain = run_subprocess(*COMMANDS[name], env={"COLUMNS": "40"})
    wide = run_subprocess(*COMMANDS[name], "--wide", env={"COLUMNS": "40"})
    assert plain.returncode in (0, 1), plain.stderr
    assert wide.returncode == plain.returncode, wide.stderr
    for out in (plain.stdout, wide.stdout):
        assert out and "Traceback" not in out
        assert all(line == line.rstrip() for line in out.splitlines()), f"{name}: trailing spaces"
        assert not any(set(line.strip()) == {"─"} for line in out.splitlines()), f"{name}: a table rule"
    assert plain.stdout == wide.stdout  # plain is already the wide layout


def test_piped_lines_are_never_wrapped_at_the_terminal_width():
    """COLUMNS=40: the explain report keeps its long lines whole."""
    r = run_subprocess(*COMMANDS["explain"], env={"COLUMNS": "40"})
    assert r.returncode == 0, r.stderr
    assert any(len(line) > 100 for line in r.stdout.splitlines())
    assert "message:  couldn't assign flavors to pod set executor: insufficient unused quota for memory in " \
           "flavor on-demand, 24Gi more needed" in r.stdout
