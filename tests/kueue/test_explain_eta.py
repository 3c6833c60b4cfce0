"""``explain --eta``: one simulation from the snapshot until the workload is admitted; the start,
what finishes first, whom it preempts, the assumptions; the ETA column of ``--all``; the JSON
``eta`` object against schemas/output/explain.json.  Clusters are written to files and read by
the CLI (in process, and once through a real subprocess)."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import jsonschema
import pytest

from quotactl.simulate import eta as eta_mod
from quotactl.simulate.clock import US
from quotactl.simulate.run import SimulationOptions
from tests.helpers import ROOT, run_cli, run_subprocess
from tests.kueue.builders import cq, flavor, with_queues
from tests.simulate.world import job, model, running

SCHEMA = json.loads((ROOT / "schemas" / "output" / "explain.json").read_text())


def one_cq(nominal=10, **kw):
    return [flavor("f"), cq("a", [(["cpu"], [("f", {"cpu": nominal})])], **kw)]


def room_after_finish():
    """t0 = 300 s (p's creation, the newest time). r2 (2 cpu) ended at 250 s: overdue, finished at
    t0. r1 (8 cpu) ends at 400 s: then p (6 cpu) fits, 100 s after t0."""
    return one_cq(10) + [running("r1", "a", 8, 100, "300s"), running("r2", "a", 2, 200, "50s"),
                         job("p", "a", 6, 300, "1m")]


def preempting():
    return one_cq(10, within="LowerPriority") + [running("low", "a", 10, 100, "1h"),
                                                  job("high", "a", 6, 200, "5m", priority=100)]


def blocked_by_notebook():
    return one_cq(10) + [running("nb", "a", 8, 100), job("p", "a", 6, 200, "5m")]


@pytest.fixture
def write(tmp_path):
    def _write(dicts) -> str:
        path = tmp_path / "cluster.json"
        path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": with_queues(dicts)}))
        return str(path)
    return _write


def eta_json(*args) -> dict:
    r = run_cli("explain", *args, "--eta", "--output", "json")
    assert r.exit_code == 0, r.stdout
    doc = json.loads(r.stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    return doc


def test_a_completion_makes_room(write):
    eta = eta_json("default/p", "-f", write(room_after_finish()))["eta"]
    assert eta["status"] == "admitted" and eta["start"] == 100
    assert eta["t0"] == "2026-01-01T00:05:00Z" and eta["startTime"] == "2026-01-01T00:06:40Z"
    assert [(f["workload"], f["at"]) for f in eta["finishesFirst"]] == [("default/r2", 0), ("default/r1", 100)]
    assert eta["preempts"] == []
    assert eta["finishesFirstTotal"] == 2
    assert eta["assumptions"] == {"runtimeSources": {"annotation": 3}, "noRuntimeRunning": [], "noRuntimeRunningTotal": 0,
                                  "overdue": ["default/r2"], "overdueTotal": 1}


def test_its_admission_preempts(write):
    eta = eta_json("default/high", "-f", write(preempting()))["eta"]
    assert eta["status"] == "admitted" and eta["start"] == 0
    assert eta["preempts"] == [{"workload": "default/low", "clusterQueue": "a", "reason": "InClusterQueue", "at": 0}]
    assert eta["finishesFirst"] == []


def test_blocked_by_a_running_workload_without_runtime(write):
    path = write(blocked_by_notebook())
    eta = eta_json("default/p", "-f", path)["eta"]
    assert eta["status"] == "never" and eta["start"] is None and eta["startTime"] is None
    assert eta["assumptions"]["noRuntimeRunning"] == ["default/nb"] and eta["assumptions"]["noRuntimeRunningTotal"] == 1
    assert eta["assumptions"]["runtimeSources"] == {"annotation": 1, "none": 1}
    text = run_cli("explain", "default/p", "-f", path, "--eta").stdout
    assert "estimated start: never" in text
    assert "blocked by running workloads with no runtime (they never finish): default/nb" in text


def test_default_runtime_and_cadence_are_simulate_s(write):
    path = write(blocked_by_notebook())
    eta = eta_json("default/p", "-f", path, "--default-runtime", "10m")["eta"]
    assert eta["status"] == "admitted" and eta["start"] == 500  # nb started at 100 s, t0 is 200 s: ends 10m on
    assert eta["assumptions"]["runtimeSources"] == {"annotation": 1, "default": 1}
    ticked = eta_json("default/p", "-f", write(room_after_finish()), "--cycle-interval", "30s")["eta"]
    assert ticked["start"] == 120  # r1 ends at 100 s; the next tick of the 30 s grid is 120 s


def test_all_has_an_eta_column_from_one_simulation(write):
    dicts = room_after_finish() + [job("q", "a", 2, 299, "1m")]
    path = write(dicts)
    r = run_cli("explain", "--all", "-f", path, "--eta", "--output", "plain")
    assert r.exit_code == 0
    header, *rows = [line for line in r.stdout.splitlines() if line.strip()]
    assert header.split()[-1] == "ETA"
    by_name = {row.split()[0]: row for row in rows if row.startswith("default/")}
    assert by_name["default/p"].rstrip().endswith("in 1m40s") and by_name["default/q"].rstrip().endswith("now")
    doc = json.loads(run_cli("explain", "--all", "-f", path, "--eta", "-o", "json").stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    assert {w["workload"]: w["eta"]["start"] for w in doc["workloads"]} == {"default/p": 100, "default/q": 0}


def test_one_simulation_stops_at_the_last_awaited_admission():
    cluster, options = model(room_after_finish() + [job("later", "a", 2, 5000, "1m")])
    t0 = datetime(2026, 1, 1, 0, 5, tzinfo=timezone.utc)  # as before "later" was created
    out = eta_mod.estimate(cluster, options, SimulationOptions(), [cluster.workloads["default/p"]], t0=t0)
    assert out["default/p"].start == 100 * US
    # the run stopped at p's admission: "later" (arriving 4700 s after t0) was never queued
    result = eta_mod.simulate(cluster, options, SimulationOptions(stop_when_admitted=frozenset({"default/p"})), t0=t0)
    assert result.stopped == "admitted" and result.end == 100 * US
    assert {r.workload: r.admissions for r in result.workloads}["default/later"] == ()


def test_an_admitted_workload_is_running_since_its_start(write):
    eta = eta_json("default/r1", "-f", write(room_after_finish()))["eta"]
    assert eta["status"] == "running" and eta["start"] == -200


def test_runtime_options_need_eta(write):
    r = run_cli("explain", "default/p", "-f", write(room_after_finish()), "--default-runtime", "5m")
    assert r.exit_code == 2 and "--eta" in r.stderr


def test_bad_runtime_annotation_is_a_usage_error(write):
    dicts = one_cq(10) + [job("p", "a", 6, 300, "soon")]
    r = run_cli("explain", "default/p", "-f", write(dicts), "--eta")
    assert r.exit_code == 2 and "quotactl.io/runtime" in r.stderr and "Traceback" not in r.stderr


def test_end_to_end_through_a_subprocess(write):
    path = write(room_after_finish())
    r = run_subprocess("explain", "default/p", "-f", path, "--eta")
    assert r.returncode == 0, r.stderr
    eta = r.stdout[r.stdout.index("ETA\n"):]
    assert "estimated start: in 1m40s (t0+100s), 2026-01-01T00:06:40Z" in eta
    assert "t0+0s  default/r2 [a]" in eta and "t0+1m40s  default/r1 [a]" in eta
    assert "overdue (runtime over before the snapshot, finished at t0): default/r2" in eta
    assert r.stderr == ""



def test_eta_is_for_kueue():
    yk = ROOT / "fixtures" / "yunikorn" / "clean"
    r = run_cli("explain", "analytics/report-gen-1", "-f", str(yk / "queues.yaml"), "-f", str(yk / "state.yaml"), "--eta")
    assert r.exit_code == 2 and "YuniKorn" in r.stderr


def test_only_completions_after_its_arrival_and_on_its_resources_are_listed_the_last_twenty():
    """30 one-cpu jobs end one after another; the 6-cpu job arriving at 5 s waits for them; a gpu
    job's completion (another resource) is not what makes room."""
    dicts = [flavor("f"), cq("a", [(["cpu", "gpu"], [("f", {"cpu": 10, "gpu": 4})])])]
    dicts += [job(f"s{i:02d}", "a", 1, 0, f"{i + 1}s") for i in range(10)]
    dicts += [job(f"t{i:02d}", "a", 1, 0, f"{i + 20}s") for i in range(20)]
    gpu = job("g", "a", 1, 0, "3s")
    gpu["spec"]["podSets"][0]["template"]["spec"]["containers"][0]["resources"]["requests"] = {"gpu": "1"}
    dicts += [gpu, job("big", "a", 6, 5, "1m")]
    cluster, options = model(dicts)
    out = eta_mod.estimate(cluster, options, SimulationOptions(), [cluster.workloads["default/big"]])
    eta = out["default/big"]
    assert eta.start == 66 * US  # the t-jobs queued before it take the room first (BestEffortFIFO)
    # from its arrival at 5 s: s04 (ends 5 s) .. s09 and t00 .. t15 (ends 66 s): 22, the last 20 listed
    assert eta.finishes_first_total == 22
    assert [f.workload for f in eta.finishes_first] == [f"default/s{i:02d}" for i in range(6, 10)] + [
        f"default/t{i:02d}" for i in range(16)]
    assert eta.finishes_first[-1].at == eta.start
