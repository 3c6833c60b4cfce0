"""Snapshot tests (syrupy) of the ``preempt`` and ``shares`` reports: plain, table and JSON (each
JSON document also validated against its schema), over the fixture cluster, the KEP-1714 Story 3
fixture and the small scenarios in tests/kueue/preemption/data."""

from __future__ import annotations

import json

import jsonschema
import pytest

from quotactl.kueue.fairshare import ranked_heads, share_tree
from quotactl.kueue.options import admission_check_states, engine_options
from quotactl.kueue.preempt_decision import decide
from quotactl.kueue.quota import build_snapshot
from quotactl.load.objects import load
from quotactl.model.kueue import build_cluster
from quotactl.report import preempt_json, preempt_text, shares_json, shares_text
from quotactl.report.caveats import with_caveats
from quotactl.report.console import View
from tests.helpers import FIXTURES, ROOT

DATA = ROOT / "tests" / "kueue" / "preemption" / "data"
PREEMPT_SCHEMA = json.loads((ROOT / "schemas" / "output" / "preempt.json").read_text())
SHARES_SCHEMA = json.loads((ROOT / "schemas" / "output" / "shares.json").read_text())

INPUTS = {
    "cluster": [FIXTURES / "cluster", ROOT / "tests" / "kueue" / "data" / "explain-extra.yaml"],
    "hierarchy": [DATA / "hierarchy.yaml"],
    "borrow": [DATA / "borrow-within-cohort.yaml"],
    "fair": [DATA / "fair-sharing.yaml"],
    "story3": [FIXTURES / "kep-1714-story3"],
    "tas": [FIXTURES / "tas" / "preempt.yaml"],
}

CASES = {
    "own-queue": ("cluster", "ml/eval-llm"),
    "no-fit-while-borrowing": ("cluster", "team-b/spark-report"),
    "exceeds-max-quota": ("cluster", "team-b/backfill-huge"),
    "fits": ("cluster", "web/web-reindex"),
    "admitted": ("cluster", "ml/finetune-llm"),
    "hierarchical-add-back": ("hierarchy", "default/train"),
    "borrow-within-cohort": ("borrow", "default/s1"),
    "borrow-threshold": ("borrow", "default/s2"),
    "fair-s2a": ("fair", "default/a1"),
    "fair-zero-weight": ("fair", "default/c1"),
    "story3-fixed-point": ("story3", "story3/2a-next"),
    "tas-victim-frees-host": ("tas", "default/high"),
}


def _world(name):
    loaded = load([str(p) for p in INPUTS[name]], fast_json=True)
    cluster = build_cluster(loaded.objects)
    options = engine_options(cluster, admission_checks=admission_check_states(loaded.objects))
    return cluster, build_snapshot(cluster, options)


@pytest.fixture(scope="module")
def worlds():
    return {name: _world(name) for name in INPUTS}


def _decide(worlds, case):
    name, key = CASES[case]
    cluster, snap = worlds[name]
    return decide(cluster, snap, cluster.workloads[key])


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_preempt_plain(worlds, case, snapshot):
    assert preempt_text.render_plain(_decide(worlds, case)) == snapshot


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_preempt_json(worlds, case, snapshot):
    doc = preempt_json.decision_dict(_decide(worlds, case))
    jsonschema.Draft202012Validator(PREEMPT_SCHEMA).validate(with_caveats(doc, ()))  # the command adds them
    assert json.dumps(doc, indent=2) == snapshot


@pytest.mark.parametrize("case", ["hierarchical-add-back", "fair-s2a"])
def test_preempt_table(worlds, case, snapshot):
    assert preempt_text.render_table(_decide(worlds, case), view=View(width=130)) == snapshot


@pytest.mark.parametrize("name", ["story3", "cluster", "fair"])
def test_shares_plain(worlds, name, snapshot):
    cluster, snap = worlds[name]
    assert shares_text.render_plain(share_tree(snap), ranked_heads(cluster, snap)) == snapshot


@pytest.mark.parametrize("name", ["story3", "cluster"])
def test_shares_json(worlds, name, snapshot):
    cluster, snap = worlds[name]
    doc = shares_json.shares_dict(share_tree(snap), ranked_heads(cluster, snap))
    jsonschema.Draft202012Validator(SHARES_SCHEMA).validate(with_caveats(doc, ()))  # the command adds them
    assert json.dumps(doc, indent=2) == snapshot


def test_shares_table(worlds, snapshot):
    cluster, snap = worlds["story3"]
    assert shares_text.render_table(share_tree(snap), ranked_heads(cluster, snap), view=View(width=150)) == snapshot
