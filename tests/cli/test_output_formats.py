"""Every command x every -o format, end to end through a real subprocess: each format the command's
reports registered renders (exit 0 or 1, a report on stdout); any other value is refused before the
input is read, with one line naming the accepted ones (exit 2), never a KeyError after the work."""

from __future__ import annotations

import pytest

from quotactl.report.renderers import ORDER
from tests.helpers import run_subprocess

CLUSTER = ["-f", "fixtures/cluster", "-f", "tests/kueue/data/explain-extra.yaml"]
YK = ["-f", "fixtures/yunikorn/clean/queues.yaml", "-f", "fixtures/yunikorn/clean/state.yaml"]

# every report a command prints, by one command line each (snapshot needs a cluster: tests/live)
REPORTS = {
    "lint": ["lint", "fixtures/broken"],
    "rules": ["rules"],
    "rule": ["rules", "KQ502"],
    "explain": ["explain", "team-b/spark-report", *CLUSTER],
    "explain-all": ["explain", "--all", *CLUSTER],
    "explain-eta": ["explain", "team-b/spark-report", "--eta", "--default-runtime", "1h", *CLUSTER],
    "explain-all-eta": ["explain", "--all", "--eta", "--default-runtime", "1h", *CLUSTER],
    "explain-jobs": ["explain", "-f", "fixtures/jobs/snapshot.yaml", "-f", "fixtures/jobs/my-job.yaml"],
    "yunikorn-explain": ["explain", "analytics/report-gen-1", *YK],
    "preempt": ["preempt", "ml/eval-llm", *CLUSTER],
    "yunikorn-preempt": ["preempt", "analytics/report-gen-1", *YK],
    "queues": ["queues", *YK],
    "schedule": ["schedule", *CLUSTER],
    "simulate": ["simulate", "-f", "fixtures/simulate/what-if/after.yaml", "-f", "fixtures/simulate/what-if/trace.yaml"],
    "diff": ["diff", "--base", "fixtures/ci-diff/before", "--head", "fixtures/ci-diff/after",
             "-f", "fixtures/ci-diff/workloads.yaml"],
    "shares": ["shares", *CLUSTER],
    "workload": ["workload", "-f", "fixtures/jobs/my-job.yaml"],
}

# what each command's -o accepts: pinned here, so that a renderer added or lost shows in a diff
ACCEPTED = {
    "lint": ("table", "plain", "wide", "json", "yaml", "sarif", "github"),
    "rules": ("table", "plain", "wide", "json", "yaml", "markdown"),
    "queues": ("table", "tree", "plain", "wide", "json", "yaml"),
    "workload": ("table", "plain", "wide", "json", "yaml"),
    "snapshot": ("json", "yaml"),
    **{c: ("table", "plain", "wide", "json", "yaml") for c in ("explain", "preempt", "schedule", "simulate", "diff",
                                                                "shares")},
}


def _command(report: str) -> str:
    return REPORTS[report][0]


@pytest.mark.parametrize("report, fmt", [(r, f) for r in REPORTS for f in ACCEPTED[_command(r)]])
def test_every_accepted_format_renders(report, fmt):
    r = run_subprocess(*REPORTS[report], "-o", fmt)
    assert r.returncode in (0, 1), r.stderr
    assert r.stdout.strip() and "Traceback" not in r.stderr and "internal error" not in r.stderr


def _refused(command: str) -> list[str]:
    """A format another command has, and one nobody has."""
    return [next(f for f in ORDER if f not in ACCEPTED[command]), "bogus"]


@pytest.mark.parametrize("command, fmt", [(c, f) for c in ACCEPTED for f in _refused(c)])
def test_any_other_format_is_one_line_and_exit_2(command, fmt):
    # refused while parsing: even with no input at all
    r = run_subprocess(command, "-o", fmt)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == f"quotactl: error: -o {fmt!r}: use {', '.join(ACCEPTED[command])}\n"
