"""Snapshot tests (syrupy) of the schedule and diff reports (plain text and JSON, validated
against schemas/output/), over the CI fixture and the livelock scenario; and the CLI exit codes."""

from __future__ import annotations

import json

import jsonschema
import pytest

from quotactl.kueue.diff import diff
from quotactl.kueue.options import engine_options
from quotactl.kueue.scheduler import schedule
from quotactl.load.objects import load
from quotactl.model.kueue import build_cluster
from quotactl.report import diff_json, diff_text, schedule_json, schedule_text
from quotactl.report.caveats import with_caveats
from quotactl.report.console import View
from tests.helpers import FIXTURES, ROOT, run_cli
from tests.kueue.scheduler.test_cycle import livelock_world

CI = FIXTURES / "ci-diff"
SCHEDULE_SCHEMA = json.loads((ROOT / "schemas" / "output" / "schedule.json").read_text())
DIFF_SCHEMA = json.loads((ROOT / "schemas" / "output" / "diff.json").read_text())


def _world(*paths):
    cluster = build_cluster(load([str(p) for p in paths], fast_json=True).objects)
    return cluster, engine_options(cluster)


@pytest.fixture(scope="module")
def before():
    return schedule(*_world(CI / "before", CI / "workloads.yaml"))


@pytest.fixture(scope="module")
def ci_diff():
    cb, ob = _world(CI / "before", CI / "workloads.yaml")
    ch, oh = _world(CI / "after", CI / "workloads.yaml")
    return diff(cb, ob, ch, oh)


def test_schedule_plain(before, snapshot):
    assert schedule_text.render_plain(before) == snapshot


def test_schedule_table(before, snapshot):
    assert schedule_text.render_table(before, view=View(width=140)) == snapshot


def test_schedule_json(before, snapshot):
    doc = schedule_json.document(before)
    jsonschema.validate(with_caveats(doc, ()), SCHEDULE_SCHEMA)  # the command adds the caveats
    assert doc == snapshot


def test_livelock_report(snapshot):
    r = schedule(*livelock_world())
    doc = schedule_json.document(r)
    jsonschema.validate(with_caveats(doc, ()), SCHEDULE_SCHEMA)
    assert doc["converged"] is False and doc["livelock"]["workloads"]
    assert schedule_text.render_plain(r) == snapshot


def test_diff_plain(ci_diff, snapshot):
    assert diff_text.render_plain(ci_diff, ("evictions", "starvation")) == snapshot


def test_diff_table(ci_diff, snapshot):
    assert diff_text.render_table(ci_diff, (), view=View(width=160)) == snapshot


def test_diff_json(ci_diff, snapshot):
    doc = diff_json.document(ci_diff, ())
    jsonschema.validate(with_caveats(doc, ()), DIFF_SCHEMA)
    assert doc == snapshot


def test_ci_gate_through_cli():
    args = ["diff", "--base", str(CI / "before"), "--head", str(CI / "after"), "-f", str(CI / "workloads.yaml")]
    ok = run_cli(*args, "--output", "json")
    assert ok.exit_code == 0, ok.stderr
    gate = run_cli(*args, "--fail-on", "evictions,starvation", "--output", "json")
    assert gate.exit_code == 1
    doc = json.loads(gate.stdout)
    jsonschema.validate(doc, DIFF_SCHEMA)
    assert set(doc["failed"]) == {"evictions", "starvation"}
    same = run_cli("diff", "--base", str(CI / "before"), "--head", str(CI / "before"), "-f", str(CI / "workloads.yaml"),
                   "--fail-on", "any")
    assert same.exit_code == 0, same.stdout


def test_cli_usage_errors(tmp_path):
    assert run_cli("schedule").exit_code == 2
    assert run_cli("diff", "--base", str(CI / "before")).exit_code == 2
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: [")
    assert run_cli("schedule", "-f", str(bad)).exit_code == 2
    r = run_cli("diff", "--base", str(CI / "before"), "--head", str(CI / "after"), "--fail-on", "nope")
    assert r.exit_code == 2


def test_schedule_cli_json_and_plain():
    r = run_cli("schedule", "-f", str(CI / "before"), "-f", str(CI / "workloads.yaml"), "--output", "json")
    assert r.exit_code == 0
    jsonschema.validate(json.loads(r.stdout), SCHEDULE_SCHEMA)
    p = run_cli("schedule", "-f", str(CI / "before"), "-f", str(CI / "workloads.yaml"), "--cycles", "1")
    assert p.exit_code == 0 and "cycle 1:" in p.stdout
