"""End to end (a real subprocess) through ``schedule`` and ``simulate``: Kueue's integration tests for
the queue-order timestamp of reclaim-while-borrowing victims (PrioritySortingWithinCohort off) and
for PrioritizePreemptorWorkloads.  Each fixture in ``data/`` says which upstream test it comes from;
each test also runs with the gate flipped, where quotactl used to answer (and Kueue answers) otherwise."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import run_subprocess

DATA = Path(__file__).parent / "data"


def _run(command: str, fixture: str, *extra: str) -> dict:
    p = run_subprocess(command, "-f", str(DATA / fixture), *extra, "-o", "json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def _simulated(out: dict) -> dict[str, tuple[list, list]]:
    """workload -> (admission times, (eviction time, reason, by))."""
    return {w["workload"]: (w["admissions"], [(e["at"], e["reason"], e["by"]) for e in w["evictions"]])
            for w in out["workloads"]}


# --- PrioritySortingWithinCohort off: the victim is ordered after its preemptor ------------------

def test_schedule_reclaim_while_borrowing_victim_goes_behind_its_preemptor():
    out = _run("schedule", "reclaim-while-borrowing.yaml")
    assert out["converged"] and out["stopped"] == "fixpoint"
    assert sorted(out["finalAdmitted"]) == ["ns/b1-high", "ns/b2-high"]
    assert [(p["workload"], p["reason"], p["by"]) for p in out["preempted"]] == [
        ("ns/a-low", "InCohortReclaimWhileBorrowing", "ns/b2-high")]
    assert [p["workload"] for p in out["pending"]] == ["ns/a-low"]


def test_schedule_snapshot_admitted_victim_owned_by_kueue_scans_afresh_and_goes_behind():
    """a-low admitted in the snapshot by Kueue (managedFields: kueue-admission, Apply): its eviction
    removes the admission, so it is nominated as borrowing and ordered after its preemptor."""
    out = _run("schedule", "reclaim-while-borrowing-admitted.yaml")
    assert out["converged"] and sorted(out["finalAdmitted"]) == ["ns/b1-high", "ns/b2-high"]
    assert [(p["workload"], p["by"]) for p in out["preempted"]] == [("ns/a-low", "ns/b2-high")]
    assert [p["workload"] for p in out["pending"]] == ["ns/a-low"]


def _without_managed_fields(tmp_path: Path) -> str:
    lines = (DATA / "reclaim-while-borrowing-admitted.yaml").read_text().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.strip() == "managedFields:")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("spec:"))
    path = tmp_path / "admitted-no-owner.yaml"
    path.write_text("".join(lines[:start] + lines[end:]))
    return str(path)


def test_schedule_snapshot_admitted_victim_of_unknown_owner_keeps_its_flavors_and_says_so(tmp_path):
    """Without managedFields the admission outlives the eviction (Kueue's default apply removes only
    what its manager owns): a-low comes back on its flavors as not borrowing and the two flop; the
    livelock names that assumption."""
    p = run_subprocess("schedule", "-f", _without_managed_fields(tmp_path), "-o", "json")
    out = json.loads(p.stdout)
    assert not out["converged"] and out["livelock"]["workloads"] == ["ns/a-low"]
    note = [w for w in out["livelock"]["why"] if "input admission" in w]
    assert note and "kueue-admission" in note[0] and "managedFields" in note[0]
    assert any(a.get("keptFlavors") for a in out["admitted"])


def test_schedule_merge_patch_gate_clears_every_admission_on_eviction(tmp_path):
    """WorkloadRequestUseMergePatch: the eviction's merge patch sets status.admission null whoever
    owns it, so even without managedFields the victim scans afresh."""
    out = _run_path(_without_managed_fields(tmp_path), "--feature-gates", "WorkloadRequestUseMergePatch=true")
    assert out["converged"] and sorted(out["finalAdmitted"]) == ["ns/b1-high", "ns/b2-high"]


def _run_path(path: str, *extra: str) -> dict:
    p = run_subprocess("schedule", "-f", path, *extra, "-o", "json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_schedule_with_priority_sorting_on_priority_orders_the_preemptor_first():
    """The gate at its default: the victim keeps its creation time (no +1 ms), and b2-high's
    higher priority puts it first; the same answer by the other rule."""
    out = _run("schedule", "reclaim-while-borrowing.yaml", "--feature-gates", "PrioritySortingWithinCohort=true")
    assert out["converged"] and sorted(out["finalAdmitted"]) == ["ns/b1-high", "ns/b2-high"]


def test_simulate_reclaim_while_borrowing_converges():
    out = _run("simulate", "reclaim-while-borrowing-simulate.yaml")
    assert out["converged"]
    runs = _simulated(out)
    assert runs["ns/a-low"] == ([0], [(10, "InCohortReclaimWhileBorrowing", "ns/b2-high")])
    assert runs["ns/b1-high"] == ([1], [])
    assert runs["ns/b2-high"] == ([10], [])


# --- PrioritizePreemptorWorkloads: the preemptor goes first once its victims are gone -------------

def test_simulate_preemptor_is_admitted_before_a_workload_that_could_steal_its_quota():
    runs = _simulated(_run("simulate", "preemptor-waits-for-evictions.yaml"))
    assert runs["ns/preemptor"] == ([10], [])
    assert runs["ns/wl-c"] == ([], [])
    assert runs["ns/wl-a"] == ([0], [(10, "InClusterQueue", "ns/preemptor")])
    assert runs["ns/wl-b"] == ([0], [(10, "InCohortReclaimWhileBorrowing", "ns/preemptor")])


def test_simulate_without_the_gate_the_quota_is_stolen():
    runs = _simulated(_run("simulate", "preemptor-waits-for-evictions.yaml", "--feature-gates",
                           "PrioritizePreemptorWorkloads=false"))
    assert runs["ns/preemptor"][0] == [] and runs["ns/wl-c"][0] == [10]


def test_schedule_preemptor_is_admitted_and_the_gate_is_no_caveat():
    out = _run("schedule", "preemptor-waits-for-evictions-schedule.yaml")
    assert out["converged"]
    assert sorted(out["finalAdmitted"]) == ["ns/preemptor"]
    assert sorted(p["workload"] for p in out["pending"]) == ["ns/wl-a", "ns/wl-b", "ns/wl-c"]
    assert not any(c["feature"] == "FeatureGates" for c in out["caveats"])


def test_schedule_without_the_gate_the_quota_is_stolen():
    out = _run("schedule", "preemptor-waits-for-evictions-schedule.yaml", "--feature-gates",
               "PrioritizePreemptorWorkloads=false")
    assert "ns/preemptor" not in out["finalAdmitted"] and "ns/wl-c" in out["finalAdmitted"]


def test_fair_sharing_preemptor_goes_first_in_the_tournament():
    for command in ("schedule", "simulate"):
        out = _run(command, "fair-sharing-preemptor-waits.yaml")
        assert out["converged"], command
    runs = _simulated(out)
    assert runs["ns/preemptor-wl"] == ([10], [])
    assert runs["ns/wl-a"][0] == [0] and runs["ns/wl-b"][0] == [1]


def test_fair_sharing_without_the_gate_flops():
    for command in ("schedule", "simulate"):
        out = _run(command, "fair-sharing-preemptor-waits.yaml", "--feature-gates", "PrioritizePreemptorWorkloads=false")
        assert not out["converged"] and out["livelock"]["workloads"] == ["ns/wl-a", "ns/wl-b"], command
