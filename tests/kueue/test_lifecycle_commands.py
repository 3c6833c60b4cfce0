"""``explain`` and ``schedule`` on snapshots with admission checks and waitForPodsReady (a real
subprocess): the instant of the snapshot, read with the engine simulate uses.  The inputs are the
kueue-integration-2 cases of tests/simulate/data/lifecycle with a status added."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import run_subprocess

DATA = Path(__file__).parents[1] / "simulate" / "data" / "lifecycle"
PROV = DATA / "prov-preempted-readmitted-on-flavor-without-check" / "state.yaml"
BLOCK = DATA / "pr-block-unblocks-when-ready" / "state.yaml"

RESERVED_WL2 = """  priority: 1000
  queueName: queue
status:
  admission:
    clusterQueue: cluster-queue
    podSetAssignments:
    - name: main
      count: 1
      flavors:
        cpu: flavor-1
      resourceUsage:
        cpu: 750m
  conditions:
  - type: QuotaReserved
    status: 'True'
    reason: QuotaReserved
    message: Quota reserved in ClusterQueue cluster-queue
    lastTransitionTime: '2026-03-02T09:00:10Z'
  admissionChecks:
  - name: ac-prov1
    state: Pending
    message: Waiting for the ProvisioningRequest
    lastTransitionTime: '2026-03-02T09:00:10Z'"""

ADMITTED_PROD = """  priority: 0
  queueName: prod-queue
status:
  admission:
    clusterQueue: prod-cq
    podSetAssignments:
    - name: main
      count: 1
      flavors:
        cpu: default
      resourceUsage:
        cpu: '2'
  conditions:
  - type: QuotaReserved
    status: 'True'
    reason: QuotaReserved
    message: Quota reserved in ClusterQueue prod-cq
    lastTransitionTime: '2026-03-02T09:00:00Z'
  - type: Admitted
    status: 'True'
    reason: Admitted
    message: The workload is admitted
    lastTransitionTime: '2026-03-02T09:00:00Z'"""


def _with(tmp_path: Path, src: Path, old: str, new: str) -> Path:
    text = src.read_text()
    assert old in text
    out = tmp_path / "snapshot.yaml"
    out.write_text(text.replace(old, new, 1))
    return out


def _json(*args) -> dict:
    res = run_subprocess(*args, "-o", "json")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_explain_names_the_check_a_reserved_workload_waits_on_and_what_it_holds(tmp_path):
    path = _with(tmp_path, PROV, "  priority: 1000\n  queueName: queue", RESERVED_WL2)
    doc = _json("explain", "ns/wl2", "-f", str(path))
    assert "waits on admission check ac-prov1 (Pending: Waiting for the ProvisioningRequest)" in doc["verdict"]
    text = run_subprocess("explain", "ns/wl2", "-f", str(path)).stdout
    assert "QuotaReserved in cluster-queue" in text and "cpu 750m of flavor flavor-1" in text


def test_simulate_admits_a_reserved_workload_when_its_check_answers(tmp_path):
    path = _with(tmp_path, PROV, "  priority: 1000\n  queueName: queue", RESERVED_WL2)
    path.write_text(path.read_text().replace("quotactl.io/outcome: Pending", "quotactl.io/outcome: Ready@20s", 1))
    doc = _json("simulate", "-f", str(path))
    wl2 = next(r for r in doc["workloads"] if r["workload"] == "ns/wl2")
    assert wl2["admittedInInput"] and wl2["admittedAt"] == [20]  # 20 s after its QuotaReserved time (t0)


def test_schedule_waits_while_a_quota_holder_lacks_pods_ready(tmp_path):
    path = _with(tmp_path, BLOCK, "  priority: 0\n  queueName: prod-queue", ADMITTED_PROD)
    doc = _json("schedule", "-f", str(path))
    assert doc["admitted"] == []
    pending = {p["workload"]: p for p in doc["pending"]}
    assert pending["ns/dev-wl"]["reason"] == "Waiting"
    explain = _json("explain", "ns/dev-wl", "-f", str(path))
    assert any("blockAdmission" in n and "ns/prod-wl" in n for n in explain["notes"])


def test_schedule_admits_one_then_waits_for_its_pods():
    doc = _json("schedule", "-f", str(BLOCK))
    assert [a["workload"] for a in doc["admitted"]] == ["ns/prod-wl"]
    assert [(p["workload"], p["reason"]) for p in doc["pending"]] == [("ns/dev-wl", "Waiting")]


def test_simulate_unblocks_when_the_holders_pods_are_ready(tmp_path):
    path = _with(tmp_path, BLOCK, "  priority: 0\n  queueName: prod-queue", ADMITTED_PROD)
    doc = _json("simulate", "-f", str(path))
    dev = next(r for r in doc["workloads"] if r["workload"] == "ns/dev-wl")
    assert dev["admissions"] == [9]  # t0 is 1 s after prod-wl's admission; ready 10 s after it


def test_simulate_deactivates_at_t0_a_reserved_workload_whose_check_the_snapshot_rejected(tmp_path):
    rejected = RESERVED_WL2.replace("state: Pending\n    message: Waiting for the ProvisioningRequest",
                                    "state: Rejected\n    message: no capacity")
    path = _with(tmp_path, PROV, "  priority: 1000\n  queueName: queue", rejected)
    rows = {r["workload"]: r for r in _json("simulate", "-f", str(path))["workloads"]}
    assert rows["ns/wl2"]["deactivated"] == 0 and rows["ns/wl2"]["evictions"][0]["reason"] == "Deactivated"
    assert rows["ns/wl1"]["admissions"] == [0] and rows["ns/wl1"]["admittedAt"] == [5]  # on the freed flavor-1
