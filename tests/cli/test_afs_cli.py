"""Admission fair sharing end to end, through the CLI in a subprocess: simulate, schedule and
explain order by LocalQueue usage; a Configuration value Kueue refuses is exit 2 at its line.

data/afs/one-workload-per-localqueue.yaml and cohort-preempts-higher-recent-usage.yaml are the
state.yaml of the kueue-integration-2 acceptance cases afs-one-workload-per-localqueue and
afs-cohort-preempts-higher-recent-usage (from Kueue's test/integration/singlecluster/scheduler/
fairsharing/fair_sharing_test.go); seeded-usage.yaml and classical-preemption.yaml are ours:
LocalQueues whose status carries consumed usage; admission-check.yaml is the first behind an
AdmissionCheck answering Ready after 30 s (the penalty settles at the Admitted transition)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import run_subprocess

DATA = Path(__file__).parent / "data" / "afs"


def _json(*args) -> dict:
    proc = run_subprocess(*args, "-o", "json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _rows(doc: dict) -> dict:
    return {w["workload"]: w for w in doc["workloads"]}


def test_simulate_admits_one_workload_from_each_local_queue():
    doc = _json("simulate", "-f", DATA / "one-workload-per-localqueue.yaml", "--start", "2026-03-02T09:00:03Z")
    rows = _rows(doc)
    assert [rows[k]["admissions"] for k in ("ns/a-1", "ns/a-2", "ns/b-1", "ns/b-2")] == [[0], [], [0], []]
    assert doc["converged"] is True
    assert not any(c["feature"] == "AdmissionFairSharing" for c in doc["caveats"])


def test_simulate_with_an_admission_check_reserves_by_usage_and_admits_when_the_check_is_ready():
    doc = _json("simulate", "-f", DATA / "admission-check.yaml", "--start", "2026-03-02T09:00:03Z")
    rows = _rows(doc)
    assert [rows[k]["admissions"] for k in ("ns/a-1", "ns/a-2", "ns/b-1", "ns/b-2")] == [[0], [], [0], []]
    assert [rows[k]["admittedAt"] for k in ("ns/a-1", "ns/b-1")] == [[30], [30]]
    # the penalty of a workload waiting for its checks at the snapshot is Kueue's memory only
    assert any(c["feature"] == "AdmissionFairSharing" for c in doc["caveats"])


def test_simulate_preempts_from_the_local_queue_with_the_higher_recent_usage():
    rows = _rows(_json("simulate", "-f", DATA / "cohort-preempts-higher-recent-usage.yaml"))
    assert [e["at"] for e in rows["ns/wl-high-a"]["evictions"]] == [10]  # despite its higher priority
    assert rows["ns/wl-low-b"]["evictions"] == [] and rows["ns/wl-c"]["admissions"] == [10]


def test_schedule_takes_the_local_queue_with_less_usage_first():
    doc = _json("schedule", "-f", DATA / "seeded-usage.yaml")
    assert [a["workload"] for a in doc["admitted"]] == ["ns/new-light"]
    # light's 2 plus the folded entry penalty: 6 cpu x (1 - 0.5^(5m / 1h))
    assert doc["localQueueUsage"] == {"ns/heavy": 12.0, "ns/light": 2.336754}
    off = _json("schedule", "-f", DATA / "seeded-usage.yaml", "--feature-gates", "AdmissionFairSharing=false")
    assert [a["workload"] for a in off["admitted"]] == ["ns/old-heavy"] and "localQueueUsage" not in off


def test_explain_shows_the_usage_that_orders_a_workload_behind_another():
    doc = _json("explain", "ns/old-heavy", "-f", DATA / "seeded-usage.yaml")
    assert doc["aheadInQueue"] == ["ns/new-light"]
    assert doc["localQueueUsage"] == {"ns/heavy": 12.0, "ns/light": 2.0}
    text = run_subprocess("explain", "ns/old-heavy", "-f", DATA / "seeded-usage.yaml").stdout
    assert "its LocalQueue ns/heavy has usage 12; workloads ahead come from LocalQueues with lower usage: " \
           "ns/light 2" in text


def test_a_value_kueue_refuses_is_exit_2_at_its_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    text = (DATA / "seeded-usage.yaml").read_text().replace("usageHalfLifeTime: 1h",
                                                            "usageHalfLifeTime: 1h\n  usageSamplingInterval: 0s")
    bad.write_text(text)
    for command in (("schedule",), ("simulate",), ("explain", "ns/old-heavy")):
        proc = run_subprocess(*command, "-f", bad)
        assert proc.returncode == 2, proc.stderr
        assert f"{bad}:5:" in proc.stderr and "usageSamplingInterval must be greater than 0" in proc.stderr
        assert "Traceback" not in proc.stderr


def test_classical_preemption_takes_the_candidate_of_the_local_queue_with_more_usage():
    """classical-preemption.yaml: two lower-priority candidates in one ClusterQueue; the one of
    the LocalQueue with more usage goes first although its priority is higher."""
    path = DATA / "classical-preemption.yaml"
    assert [v["workload"] for v in _json("preempt", "ns/urgent", "-f", path)["victims"]] == ["ns/heavy-running"]
    off = _json("preempt", "ns/urgent", "-f", path, "--feature-gates", "AdmissionFairSharing=false")
    assert [v["workload"] for v in off["victims"]] == ["ns/light-running"]
    assert [p["workload"] for p in _json("schedule", "-f", path)["preempted"]] == ["ns/heavy-running"]
