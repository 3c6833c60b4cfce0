"""Every human report, as the CLI builds it: run a command in-process with the report writer
captured, then draw the captured result at any width (the tests of layout, markup and plain
output use these)."""

from __future__ import annotations

import os
from contextlib import contextmanager

import pytest

from quotactl.report.renderers import render
from tests.helpers import ROOT, run_cli

CLUSTER = ["-f", "fixtures/cluster", "-f", "tests/kueue/data/explain-extra.yaml"]
CI = ["-f", "fixtures/ci-diff/before", "-f", "fixtures/ci-diff/workloads.yaml"]
YK = ["-f", "fixtures/yunikorn/clean/queues.yaml", "-f", "fixtures/yunikorn/clean/state.yaml"]

# report name -> the command line that builds it (every table renderer of every command)
COMMANDS = {
    "lint": ["lint", "fixtures/broken"],
    "lint-yunikorn": ["lint", "fixtures/yunikorn/broken/queues.yaml"],
    "explain": ["explain", "team-b/spark-report", *CLUSTER],
    "explain-all": ["explain", "--all", *CLUSTER],
    "explain-jobs": ["explain", "-f", "fixtures/jobs/snapshot.yaml", "-f", "fixtures/jobs/my-job.yaml"],
    "preempt": ["preempt", "ml/eval-llm", *CLUSTER],
    "schedule": ["schedule", *CI],
    "diff": ["diff", "--base", "fixtures/ci-diff/before", "--head", "fixtures/ci-diff/after", "-f",
             "fixtures/ci-diff/workloads.yaml"],
    "shares": ["shares", *CLUSTER],
    "queues": ["queues", *YK],
    "queues-config": ["queues", "fixtures/yunikorn/clean/queues.yaml"],
    "yunikorn-explain": ["explain", "analytics/report-gen-1", *YK],
    "yunikorn-preempt": ["preempt", "analytics/report-gen-1", *YK],
    "workload": ["workload", "-o", "table", "-f", "fixtures/jobs/my-job.yaml", "-f", "fixtures/jobs/urgent-job.yaml"],
    "rules": ["rules"],
    "rule": ["rules", "KQ502"],
}


@contextmanager
def _in_root():
    old = os.getcwd()
    os.chdir(ROOT)  # relative paths in the output, as a user would run it
    try:
        yield
    finally:
        os.chdir(old)


def capture(args: list[str]) -> tuple[str, object]:
    """(the renderer's command name, the result) the CLI hands to the report writer for ``args``."""
    seen: list[tuple[str, object]] = []

    def keep(command, fmt, result, color=False, wide=False, width=None):
        seen.append((command, result))
        return ""

    with pytest.MonkeyPatch.context() as mp, _in_root():
        mp.setattr("quotactl.cli.common.render", keep)
        outcome = run_cli(*args)
    assert seen, f"{args}: nothing rendered (exit {outcome.exit_code}: {outcome.stderr})"
    return seen[0]


def draw(captured: tuple[str, object], fmt: str, width: int | None = None, wide: bool = False) -> str:
    command, result = captured
    with _in_root():
        return render(command, fmt, result, width=width, wide=wide)
