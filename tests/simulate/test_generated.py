"""A generator scenario enters the model like loaded objects, created at t0 + arrival; through the
CLI (``--generator``) with a stand-in for the generator reader (``simulate.generator``: same
interface, a fixed small scenario), alone and together with a snapshot."""

from __future__ import annotations

import json
import sys
import types
from dataclasses import dataclass

import pytest

from quotactl.kueue.options import engine_options
from quotactl.model.kueue import build_cluster
from quotactl.simulate.generated import generated_objects
from quotactl.simulate.run import simulate
from quotactl.simulate.scenario import start_time
from tests.helpers import CASES, run_cli

V = "kueue.x-k8s.io/v1beta2"


@dataclass(frozen=True)
class GeneratedWorkload:
    manifest: dict
    arrival: float


@dataclass(frozen=True)
class GeneratedScenario:
    source: str
    objects: tuple
    workloads: tuple


class GeneratorError(Exception):
    def __init__(self, file, line, column, message):
        super().__init__(f"{file}:{line}:{column}: {message}")


def _workload(name, cls, cpu, runtime, priority, arrival):
    return GeneratedWorkload({
        "apiVersion": V, "kind": "Workload",
        "metadata": {"name": name, "namespace": "gen-cq", "labels": {"quotactl.io/class": cls},
                     "annotations": {"quotactl.io/runtime": f"{runtime}s"}},
        "spec": {"queueName": "gen-lq", "priority": priority, "podSets": [{"name": "main", "count": 1, "template": {
            "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": str(cpu)}}}]}}}]}}, arrival)


SCENARIO = GeneratedScenario("gen.yaml", (
    {"apiVersion": V, "kind": "ResourceFlavor", "metadata": {"name": "rf"}, "spec": {}},
    {"apiVersion": V, "kind": "ClusterQueue", "metadata": {"name": "gen-cq"}, "spec": {
        "namespaceSelector": {}, "resourceGroups": [{"coveredResources": ["cpu"], "flavors": [
            {"name": "rf", "resources": [{"name": "cpu", "nominalQuota": "2"}]}]}]}},
    {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "gen-cq"}},
    {"apiVersion": V, "kind": "LocalQueue", "metadata": {"name": "gen-lq", "namespace": "gen-cq"},
     "spec": {"clusterQueue": "gen-cq"}},
), (_workload("small-0", "small", 1, 0.05, 50, 0.02), _workload("small-1", "small", 1, 0.05, 50, 0.04),
    _workload("large-0", "large", 2, 0.2, 200, 0.2)))


def test_generated_workloads_are_created_at_t0_plus_arrival_and_keep_their_class():
    t0 = start_time(build_cluster([]))
    cluster = build_cluster(generated_objects(SCENARIO, t0))
    assert cluster.workloads["gen-cq/small-1"].creation_timestamp == "2026-03-02T09:00:00.04Z"
    assert SCENARIO.workloads[0].manifest["metadata"].get("creationTimestamp") is None  # not written to
    result = simulate(cluster, engine_options(cluster), t0=t0)
    runs = {w.workload: w for w in result.workloads}
    assert [w.workload for w in result.workloads] == ["gen-cq/small-0", "gen-cq/small-1", "gen-cq/large-0"]
    assert runs["gen-cq/small-1"].admissions == (40_000,) and runs["gen-cq/small-1"].finished == 90_000
    assert runs["gen-cq/large-0"].admissions == (200_000,)
    assert [(c.name, c.workloads, c.finished) for c in result.classes] == [("large", 1, 1), ("small", 2, 2)]


@pytest.fixture
def fake_generator(monkeypatch):
    module = types.ModuleType("quotactl.simulate.generator")
    module.GeneratorError = GeneratorError

    def read_generator(path):
        if path.endswith("broken.yaml"):
            raise GeneratorError(path, 3, 7, "unknown key 'cohortz'")
        return SCENARIO

    module.read_generator = read_generator
    monkeypatch.setitem(sys.modules, "quotactl.simulate.generator", module)


def test_cli_generator_alone(fake_generator):
    r = run_cli("simulate", "--generator", "gen.yaml", "-o", "json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["start"] == "2026-03-02T09:00:00Z"
    assert doc["classes"]["small"]["workloads"] == 2 and doc["workloads"][0]["class"] == "small"
    assert doc["workloads"][1]["created"] == 0.04 and doc["workloads"][1]["arrival"] == 0.04


def test_cli_generator_with_a_snapshot_starts_at_the_snapshot(fake_generator):
    state = CASES / "simulate" / "snapshot-overdue-finish-at-t0" / "state.yaml"
    r = run_cli("simulate", "-f", str(state), "--generator", "gen.yaml", "-o", "json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["start"] == "2026-03-02T12:00:00Z"
    assert set(doc["clusterQueues"]) == {"gen-cq", "team-a"}
    assert {w["workload"] for w in doc["workloads"]} >= {"team-a/p1", "gen-cq/large-0"}


def test_cli_generator_error_is_one_line_exit_2(fake_generator):
    r = run_cli("simulate", "--generator", "broken.yaml")
    assert r.exit_code == 2 and "broken.yaml:3:7: unknown key 'cohortz'" in r.stderr
