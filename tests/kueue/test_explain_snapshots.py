"""Snapshot tests (syrupy) of the explain report over the fixture cluster: a workload that fits,
one that fits by borrowing, one that needs preemption, one that cannot fit, one that can never
fit, misconfigured ones, an inactive ClusterQueue, an admitted workload, and --all."""

from __future__ import annotations

import json

import jsonschema
import pytest

from quotactl.kueue.explain import explain_workload
from quotactl.kueue.lookup import find_workload, pending_workloads
from quotactl.kueue.options import admission_check_states, engine_options
from quotactl.kueue.quota import build_snapshot
from quotactl.load.objects import load
from quotactl.model.kueue import build_cluster
from quotactl.report import explain_json, explain_text
from quotactl.report.caveats import with_caveats
from quotactl.report.console import View
from tests.helpers import FIXTURES, ROOT

DATA = ROOT / "tests" / "kueue" / "data"
SCHEMA = json.loads((ROOT / "schemas" / "output" / "explain.json").read_text())

CASES = {
    "fits": "web/web-reindex",
    "borrows": "team-a/sweep-17",
    "needs-preemption": "ml/eval-llm",
    "cannot-fit": "team-b/spark-report",
    "exceeds-max-quota": "team-b/backfill-huge",
    "misconfigured-local-queue": "team-a/orphan",
    "misconfigured-cluster-queue": "web/stale-job",
    "inactive-cluster-queue": "team-a/old-report",
    "admitted": "ml/finetune-llm",
}


@pytest.fixture(scope="module")
def world():
    loaded = load([str(FIXTURES / "cluster"), str(DATA / "explain-extra.yaml")], fast_json=True)
    cluster = build_cluster(loaded.objects)
    options = engine_options(cluster, admission_checks=admission_check_states(loaded.objects))
    return cluster, build_snapshot(cluster, options)


def _explain(world, key):
    cluster, snapshot = world
    return explain_workload(cluster, snapshot, find_workload(cluster, key).workload)


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_plain_report(world, case, snapshot):
    assert explain_text.render_plain(_explain(world, CASES[case])) == snapshot


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_json_report(world, case, snapshot):
    doc = explain_json.explanation_dict(_explain(world, CASES[case]))
    jsonschema.Draft202012Validator(SCHEMA).validate(with_caveats(doc, ()))  # the command adds the caveats
    assert json.dumps(doc, indent=2) == snapshot


@pytest.mark.parametrize("case", ["needs-preemption", "borrows"])
def test_table_report(world, case, snapshot):
    assert explain_text.render_table(_explain(world, CASES[case]), view=View(width=130)) == snapshot


def test_all_pending(world, snapshot):
    cluster, snap = world
    explanations = [explain_workload(cluster, snap, w) for w in pending_workloads(cluster)]
    doc = json.loads(explain_json.render_all(explanations))
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    assert explain_text.render_all_plain(explanations) == snapshot


def test_reasons_of_the_fixture_workloads(world):
    got = {case: _explain(world, key).reason for case, key in CASES.items()}
    assert got == {
        "fits": None, "borrows": None, "needs-preemption": "WaitingForPreemptedWorkloads",
        "cannot-fit": "WaitingForQuota", "exceeds-max-quota": "ExceedsMaxQuota",
        "misconfigured-local-queue": "Misconfigured", "misconfigured-cluster-queue": "Misconfigured",
        "inactive-cluster-queue": "Suspended", "admitted": None,
    }
    assert _explain(world, CASES["borrows"]).borrows
    assert not _explain(world, CASES["fits"]).borrows
