"""``quotactl simulate`` end to end through a real subprocess: the plot in plain output, --no-plot,
--html, -o json untouched by the report options, and the progress bar only on a terminal."""

from __future__ import annotations

import json
import sys

import pytest

from quotactl.cli import simulate_progress
from tests.helpers import ROOT, run_subprocess, run_with_stderr_on_a_terminal

WHAT_IF = ROOT / "fixtures" / "simulate" / "what-if"
INPUT = ["-f", str(WHAT_IF / "after.yaml"), "-f", str(WHAT_IF / "trace.yaml")]


def test_piped_output_has_the_plot_in_plain_characters_and_no_progress_bar():
    r = run_subprocess("simulate", *INPUT)
    assert r.returncode == 0 and r.stderr == ""
    assert "\x1b[" not in r.stdout
    assert r.stdout.startswith("simulated 146 workload(s)")
    assert "Pending workloads (cluster, peak)" in r.stdout and "Usage of nominal quota (cluster, %)" in r.stdout
    assert "team-b: admitted" in r.stdout and "batch: 99 workload(s)" in r.stdout


def test_no_plot():
    r = run_subprocess("simulate", *INPUT, "--no-plot")
    assert r.returncode == 0 and "Pending workloads" not in r.stdout and "ClusterQueues:" in r.stdout


def test_json_is_the_contract_whatever_the_report_options(tmp_path):
    plain = run_subprocess("simulate", *INPUT, "-o", "json")
    with_opts = run_subprocess("simulate", *INPUT, "-o", "json", "--plot-per-queue", "--html", str(tmp_path / "r.html"))
    assert plain.returncode == 0 and plain.stderr == "" and plain.stdout == with_opts.stdout
    doc = json.loads(plain.stdout)
    assert doc["version"] == 1 and "series" not in doc and len(doc["workloads"]) == 146
    assert (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")


def test_html_file_same_bytes_and_offline(tmp_path):
    a, b = tmp_path / "a.html", tmp_path / "b.html"
    for path in (a, b):
        assert run_subprocess("simulate", *INPUT, "--no-plot", "--html", str(path)).returncode == 0
    assert a.read_bytes() == b.read_bytes()
    text = a.read_text()
    assert "<script" not in text and "team-b" in text and text.count("<svg") == 2


def test_html_unwritable_is_one_line_exit_2(tmp_path):
    r = run_subprocess("simulate", *INPUT, "--html", str(tmp_path / "no-such-dir" / "r.html"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "--html" in r.stderr and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_progress_bar_on_a_terminal_only_and_never_on_stdout():
    code, out, err = run_with_stderr_on_a_terminal("simulate", *INPUT, "--no-plot")
    assert code == 0 and "simulating" in err and "simulating" not in out
    code, out, err = run_with_stderr_on_a_terminal("simulate", *INPUT, "-o", "json")
    assert code == 0 and err == "" and json.loads(out)["version"] == 1  # a script reads the JSON: no bar


def test_progress_wanted(monkeypatch):
    def tty(stdout: bool, stderr: bool):
        monkeypatch.setattr(sys.stdout, "isatty", lambda: stdout, raising=False)
        monkeypatch.setattr(sys.stderr, "isatty", lambda: stderr, raising=False)

    monkeypatch.setenv("TERM", "xterm")
    tty(False, False)  # the argument: the output is a document (-o json or yaml)
    assert not simulate_progress.progress_wanted(False) and not simulate_progress.progress_wanted(True)
    tty(False, True)
    assert simulate_progress.progress_wanted(False) and not simulate_progress.progress_wanted(True)
    tty(True, True)
    assert simulate_progress.progress_wanted(True)
    monkeypatch.setenv("TERM", "dumb")
    assert not simulate_progress.progress_wanted(False)
