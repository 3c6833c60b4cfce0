"""The mutations do what their names say, on plain data and in the YAML text they write."""

from __future__ import annotations

import base64
import gzip
import random

import pytest
from ruamel.yaml import YAML
from ruamel.yaml.constructor import DuplicateKeyError

from tests.fuzz import mutate as m


def _docs():
    return [{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": "cq"},
             "spec": {"cohortName": "x", "resourceGroups": [{"coveredResources": ["cpu"], "flavors": [
                 {"name": "default", "resources": [{"name": "cpu", "nominalQuota": 4}]}]}]}}]


def _load(text: str):
    return [d for d in YAML(typ="safe").load_all(text) if d is not None]


def test_block_yaml_round_trips_plain_data():
    docs = _docs() + [{"a": [1, 2.5, None, True, "x y", "", "1e3", {"b": []}], "c": {}}]
    assert _load(m.emit_yaml(docs)) == docs


def test_cohort_chain_and_cycle():
    for seed in range(20):
        docs = _docs()
        label = m.mut_cohorts(random.Random(seed), docs, 0)
        cohorts = [d for d in docs if d["kind"] == "Cohort"]
        n = int(label.split()[1])
        parents = [d["spec"].get("parentName", d["spec"].get("parent")) for d in cohorts]
        assert len(cohorts) == n and docs[0]["spec"]["cohortName"] == "c0"
        assert (None not in parents) == ("cycle" in label)


def test_duplicate_keys_and_recursive_alias_reach_the_text():
    docs = _docs()
    m.mut_duplicate_key(random.Random(3), docs, 0)
    with pytest.raises(DuplicateKeyError):
        _load(m.emit_yaml(docs))
    recursive = m.emit_yaml([{"a": m.Anchored("r", {"self": m.Raw("*r")})}])
    assert "&r" in recursive and "*r" in recursive


def test_lone_surrogates_survive_into_json_and_yaml_text():
    docs = [{"metadata": {"name": "\ud800"}}]
    assert "\\ud800" in m.emit_json(docs[0]) and "\\ud800" in m.emit_yaml(docs)


def test_gzip_configmap_holds_the_queues():
    for seed in range(30):
        data, label = m.gzip_configmap(random.Random(seed), "partitions: []\n")
        if label == "configmap gzip":
            cm = _load(data.decode())[0]
            assert gzip.decompress(base64.b64decode(cm["binaryData"]["queues.yaml.gz"])) == b"partitions: []\n"
            return
    raise AssertionError("no gzip form in 30 seeds")


def test_huge_numbers_are_written_verbatim():
    for seed in range(10):
        docs = _docs()
        label = m.mut_huge_number(random.Random(seed), docs, 0)
        size = int(label.split("(")[1].split()[0])
        text = m.emit_yaml(docs)
        assert any(len(h) == size and h in text for h in m.HUGE_NUMBERS), label
