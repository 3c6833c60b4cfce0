"""Quantities of thousands of digits in either dialect: reported by the quantity rules, never a crash
of another rule (Python's int() refuses more than 4,300 digits; found by the fuzzer). The autouse
fixture of this folder makes a crashing rule fail the test."""

from __future__ import annotations

from tests.helpers import run_json

HUGE = "9" * 5000


def test_yunikorn_memory_of_5000_digits_is_an_overflow(tmp_path):
    (tmp_path / "queues.yaml").write_text(
        "partitions:\n- name: default\n  queues:\n  - name: root\n    queues:\n    - name: a\n"
        f"      resources:\n        max: {{memory: {HUGE}}}\n")
    code, doc = run_json("lint", str(tmp_path / "queues.yaml"))
    codes = {d["code"] for d in doc["diagnostics"]}
    assert code == 1 and "YK308" not in codes
    assert any("overflow" in d["message"] for d in doc["diagnostics"])


def test_kueue_nominal_quota_of_5000_digits_saturates(tmp_path):
    (tmp_path / "cq.yaml").write_text(
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: cq\nspec:\n"
        "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: default\n      resources:\n"
        f"      - name: cpu\n        nominalQuota: \"{HUGE}\"\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: default\n")
    code, doc = run_json("lint", str(tmp_path / "cq.yaml"))
    assert code in (0, 1)
    assert "QL999" not in {d["code"] for d in doc["diagnostics"]}


def test_priority_boost_of_5000_digits_is_out_of_range(tmp_path):
    (tmp_path / "wl.yaml").write_text(
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: w\n  namespace: a\n  annotations:\n"
        f"    kueue.x-k8s.io/priority-boost: \"{HUGE}\"\nspec:\n  podSets:\n  - name: main\n    count: 1\n"
        "    template:\n      spec:\n        containers:\n        - name: c\n")
    _, doc = run_json("lint", str(tmp_path / "wl.yaml"))
    boost = [d for d in doc["diagnostics"] if d["code"] == "KQ418"]
    assert boost and "range -2147483648..2147483647" in boost[0]["message"]
