"""The scoped model (only the workload's cohort tree) gives exactly the full model's answer."""

from __future__ import annotations

import json

import pytest

from quotactl.kueue.explain import explain_workload
from quotactl.kueue.lookup import find_workload
from quotactl.kueue.options import engine_options
from quotactl.kueue.quota import build_snapshot
from quotactl.kueue.scope import scoped_cluster, tree_cluster_queues
from quotactl.load.objects import load
from quotactl.model.kueue import build_cluster
from quotactl.model.kueue_input import KueueInput
from quotactl.report.explain_json import explanation_dict
from tests.helpers import FIXTURES, ROOT

FILES = [str(FIXTURES / "cluster"), str(ROOT / "tests" / "kueue" / "data" / "explain-extra.yaml")]


def _answer(cluster, key):
    snap = build_snapshot(cluster, engine_options(cluster))
    return json.dumps(explanation_dict(explain_workload(cluster, snap, find_workload(cluster, key).workload)),
                      sort_keys=True)


@pytest.fixture(scope="module")
def loaded():
    return load(FILES, fast_json=True).objects


def test_scoped_answers_equal_full_answers(loaded):
    full = build_cluster(loaded)
    for key in sorted(full.workloads):
        scoped = scoped_cluster(KueueInput(loaded), key)
        assert scoped is not None
        assert _answer(scoped, key) == _answer(full, key), key


def test_scope_keeps_only_the_tree(loaded):
    full = build_cluster(loaded)
    assert tree_cluster_queues(full, "team-a") == {"team-a", "team-b", "team-ml", "prod-web"}
    assert tree_cluster_queues(full, "archive") == {"archive"}
    scoped = scoped_cluster(KueueInput(loaded), "team-a/old-report")
    assert set(scoped.workloads) == {"team-a/old-report"}


def test_unknown_or_ambiguous_names_fall_back(loaded):
    assert scoped_cluster(KueueInput(loaded), "nope/nothing") is None
