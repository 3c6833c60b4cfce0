"""Snapshot tests of the YuniKorn explain and preempt reports (plain, table, json) and of
``quotactl queues`` with the cluster state, over fixtures/yunikorn/clean and two shared cases."""

from __future__ import annotations

import pytest

from quotactl.cli.queues import attach_live, build_reports
from quotactl.cli.yunikorn_cmds import build
from quotactl.load.objects import load
from quotactl.load.yunikorn import load_inputs
from quotactl.report import queues_json, queues_text, yunikorn_json, yunikorn_text
from quotactl.report.console import View
from quotactl.yunikorn.explain import explain_pod, find_pod
from tests.helpers import CASES, ROOT

CLEAN = ["fixtures/yunikorn/clean/queues.yaml", "fixtures/yunikorn/clean/state.yaml"]
DIFF = CASES / "yunikorn-diff-preempt" / "seed1099-victims-2"
UNIT = CASES / "yunikorn-preempt" / "try-preemption-on-queue-victims-on-different-nodes"


@pytest.fixture(autouse=True)
def _cwd(monkeypatch):
    monkeypatch.chdir(ROOT)


def explanation(files, pod, direct=False):
    cluster = build(load([str(f) for f in files], fast_json=True)).cluster
    return explain_pod(cluster, find_pod(cluster, pod).task, direct=direct)


@pytest.mark.parametrize("pod", ["analytics/report-gen-1", "research/train-b-0", "batch/etl-20", "batch/etl-3"])
def test_explain_plain(snapshot, pod):
    assert yunikorn_text.render_explain_plain(explanation(CLEAN, pod)) == snapshot


def test_explain_table(snapshot):
    assert yunikorn_text.render_explain_table(explanation(CLEAN, "analytics/report-gen-1"), view=View(width=170)) == snapshot


def test_explain_json(snapshot):
    assert yunikorn_json.render_explain(explanation(CLEAN, "analytics/report-gen-1")) == snapshot


@pytest.mark.parametrize("pod", ["analytics/report-gen-1", "research/train-b-0"])
def test_preempt_plain(snapshot, pod):
    assert yunikorn_text.render_preempt_plain(explanation(CLEAN, pod)) == snapshot


def test_preempt_direct_plain(snapshot):
    e = explanation(CLEAN, "analytics/report-gen-1", direct=True)
    assert yunikorn_text.render_preempt_plain(e) == snapshot


def test_preempt_table(snapshot):
    assert yunikorn_text.render_preempt_table(explanation(CLEAN, "analytics/report-gen-1"), view=View(width=150)) == snapshot


def test_preempt_json(snapshot):
    assert yunikorn_json.render_preempt(explanation(CLEAN, "analytics/report-gen-1")) == snapshot


def test_diff_case_preempt_plain(snapshot):
    files = [DIFF / "queues.yaml", DIFF / "state.yaml"]
    assert yunikorn_text.render_preempt_plain(explanation(files, "default/pending-team1-ml1")) == snapshot


def test_unit_case_direct_preempt_plain(snapshot):
    files = [UNIT / "queues.yaml", UNIT / "state.yaml"]
    assert yunikorn_text.render_preempt_plain(explanation(files, "default/alloc3", direct=True)) == snapshot


def _queue_reports():
    loaded = load(CLEAN)
    inputs = load_inputs([o for o in loaded.objects if o.kind in ("SchedulerConfig", "ConfigMap")])
    reports = build_reports(inputs)
    attach_live(reports, loaded, inputs)
    return reports


def test_queues_live_table(snapshot):
    assert queues_text.render_table(_queue_reports(), view=View(width=260)) == snapshot


def test_queues_live_plain(snapshot):
    assert queues_text.render_plain(_queue_reports()) == snapshot


def test_queues_live_tree(snapshot):
    assert queues_text.render_tree(_queue_reports(), view=View(width=160)) == snapshot


def test_queues_live_json(snapshot):
    assert queues_json.render(_queue_reports()) == snapshot
