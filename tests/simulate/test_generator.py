"""The generator reader: Kueue's scheduler-performance configs -> the objects and timed Workloads
its runner creates (test/performance/scheduler/runner/generator/generator.go), and every way a
config can be refused, with its position."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quotactl.simulate.generator import (
    MAX_CLUSTER_QUEUES,
    MAX_WORKLOADS,
    GeneratedScenario,
    GeneratorError,
    read_generator,
    runtime_text,
)
from tests.helpers import FIXTURES
from tests.property_budget import examples

BASELINE = FIXTURES / "simulate" / "kueue-baseline" / "generator.yaml"
LARGE_SCALE = FIXTURES / "simulate" / "kueue-large-scale" / "generator.yaml"

SMALL = """\
cohorts:
- className: cohort
  count: 1
  queuesSets:
  - className: cq
    count: 2
    nominalQuota: 20
    borrowingLimit: 100
    reclaimWithinCohort: Any
    withinClusterQueue: LowerPriority
    workloadsSets:
    - count: 3
      creationIntervalMs: 100
      workloads:
      - className: small
        runtimeMs: 200
        priority: 50
        request: 1
"""


def _write(tmp_path, text: str, name: str = "generator.yaml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _kinds(scenario: GeneratedScenario) -> Counter:
    return Counter(o["kind"] for o in scenario.objects)


def _classes(scenario: GeneratedScenario) -> Counter:
    return Counter(w.manifest["metadata"]["labels"]["quotactl.io/class"] for w in scenario.workloads)


def _last_arrival(scenario: GeneratedScenario) -> dict[str, float]:
    last: dict[str, float] = {}
    for w in scenario.workloads:
        cls = w.manifest["metadata"]["labels"]["quotactl.io/class"]
        last[cls] = max(last.get(cls, 0.0), w.arrival)
    return last


# ------------------------------------------------------------------------ Kueue's configs ---

@pytest.fixture(scope="module")
def baseline() -> GeneratedScenario:
    return read_generator(str(BASELINE))


@pytest.fixture(scope="module")
def large_scale() -> GeneratedScenario:
    return read_generator(str(LARGE_SCALE))


def test_baseline_creates_what_kueues_harness_creates(baseline):
    # 5 cohorts x 6 queues; per queue 350 small, 100 medium, 50 large.
    assert _kinds(baseline) == {"ResourceFlavor": 1, "ClusterQueue": 30, "Namespace": 30, "LocalQueue": 30}
    assert _classes(baseline) == {"small": 10_500, "medium": 3_000, "large": 1_500}
    # Each set's sender waits its interval before every create: 350 x 100 ms, 100 x 500 ms, 50 x 1200 ms.
    assert _last_arrival(baseline) == {"small": 35.0, "medium": 50.0, "large": 60.0}
    assert baseline.workloads[0].arrival == 0.1
    assert baseline.source == str(BASELINE)


def test_large_scale_creates_what_kueues_harness_creates(large_scale):
    # 10 cohorts x 100 queues; per queue 35 small, 11 medium, 4 large.
    assert _kinds(large_scale) == {"ResourceFlavor": 1, "ClusterQueue": 1000, "Namespace": 1000, "LocalQueue": 1000}
    assert _classes(large_scale) == {"small": 35_000, "medium": 11_000, "large": 4_000}
    assert _last_arrival(large_scale) == {"small": 2.1, "medium": 3.3, "large": 2.8}
    cohorts = Counter(o["spec"]["cohortName"] for o in large_scale.objects if o["kind"] == "ClusterQueue")
    assert cohorts == {f"cohort-{i}": 100 for i in range(10)}


def test_cluster_queue_is_the_harness_cluster_queue(baseline):
    cq = next(o for o in baseline.objects if o["kind"] == "ClusterQueue")
    assert cq == {
        "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue",
        "metadata": {"name": "cq-0-0-cohort-0", "labels": {
            "kueue.x-k8s.io/performance-scheduler-class": "cq",
            "kueue.x-k8s.io/performance-scheduler-cleanup": "true"}},
        "spec": {
            "cohortName": "cohort-0",
            "namespaceSelector": {},
            "queueingStrategy": "BestEffortFIFO",
            "flavorFungibility": {"whenCanBorrow": "MayStopSearch", "whenCanPreempt": "TryNextFlavor"},
            "resourceGroups": [{"coveredResources": ["cpu"], "flavors": [{"name": "rf", "resources": [
                {"name": "cpu", "nominalQuota": "20", "borrowingLimit": "100"}]}]}],
            "preemption": {"reclaimWithinCohort": "Any", "withinClusterQueue": "LowerPriority"},
        },
    }


def test_objects_come_in_the_harness_order(baseline):
    # The flavor first, then per queue: ClusterQueue, its Namespace, its LocalQueue (generateQueue).
    assert baseline.objects[0] == {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor",
                                   "metadata": {"name": "rf", "labels": {
                                       "kueue.x-k8s.io/performance-scheduler-cleanup": "true"}},
                                   "spec": {}}
    trio = baseline.objects[1:4]
    assert [o["kind"] for o in trio] == ["ClusterQueue", "Namespace", "LocalQueue"]
    assert trio[1]["metadata"]["name"] == trio[2]["metadata"]["namespace"] == "cq-0-0-cohort-0"
    assert trio[2]["spec"] == {"clusterQueue": "cq-0-0-cohort-0"}
    names = [o["metadata"]["name"] for o in baseline.objects if o["kind"] == "ClusterQueue"]
    assert names[:7] == [f"cq-0-{i}-cohort-0" for i in range(6)] + ["cq-0-0-cohort-1"]


def test_workload_is_the_harness_workload_with_quotactls_class_and_runtime(baseline):
    wl = next(w for w in baseline.workloads if w.manifest["metadata"]["name"] == "medium-1-0-0"
              and w.manifest["metadata"]["namespace"] == "cq-0-0-cohort-0")
    assert wl.arrival == 0.5
    assert wl.manifest == {
        "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
        "metadata": {
            "name": "medium-1-0-0", "namespace": "cq-0-0-cohort-0",
            "labels": {"kueue.x-k8s.io/performance-scheduler-running-ms": "500",
                       "kueue.x-k8s.io/performance-scheduler-class": "medium",
                       "quotactl.io/class": "medium"},
            "annotations": {"quotactl.io/runtime": "0.5s"},
        },
        "spec": {"queueName": "cq-0-0-cohort-0", "priority": 100, "podSets": [
            {"name": "main", "count": 1, "template": {"spec": {
                "restartPolicy": "Never",
                "containers": [{"name": "c", "resources": {"requests": {"cpu": "5"}}}]}}}]},
    }


def test_workloads_are_ordered_by_arrival_and_unique(large_scale):
    arrivals = [w.arrival for w in large_scale.workloads]
    assert arrivals == sorted(arrivals)
    keys = {(w.manifest["metadata"]["namespace"], w.manifest["metadata"]["name"]) for w in large_scale.workloads}
    assert len(keys) == len(large_scale.workloads)
    assert all(w.manifest["spec"]["queueName"] == w.manifest["metadata"]["namespace"] for w in large_scale.workloads)
    assert not any("creationTimestamp" in w.manifest["metadata"] for w in large_scale.workloads)


def test_same_file_same_scenario(tmp_path):
    first = read_generator(str(BASELINE))
    copy = _write(tmp_path, BASELINE.read_text())
    second = read_generator(copy)
    assert first.workloads == second.workloads
    assert json.dumps(first.objects) == json.dumps(second.objects)


# -------------------------------------------------------------------------- small configs ---

def test_templates_of_a_set_are_created_in_turn(tmp_path):
    text = SMALL.replace("""        request: 1
""", """        request: 1
      - className: big
        runtimeMs: 1500
        request: 500m
""")
    scenario = read_generator(_write(tmp_path, text))
    first_queue = [(w.manifest["metadata"]["name"], w.arrival) for w in scenario.workloads
                   if w.manifest["metadata"]["namespace"] == "cq-0-0-cohort-0"]
    # round 0: small then big, round 1: small then big, ...; one interval before each create.
    assert first_queue == [("small-0-0-0", 0.1), ("big-0-0-1", 0.2), ("small-0-1-0", 0.3),
                           ("big-0-1-1", 0.4), ("small-0-2-0", 0.5), ("big-0-2-1", 0.6)]
    big = next(w.manifest for w in scenario.workloads if w.manifest["metadata"]["name"] == "big-0-0-1")
    assert big["spec"]["priority"] == 0
    assert big["metadata"]["annotations"] == {"quotactl.io/runtime": "1.5s"}
    assert big["spec"]["podSets"][0]["template"]["spec"]["containers"][0]["resources"]["requests"] == {"cpu": "500m"}


def test_optional_fields_are_left_to_kueues_defaults(tmp_path):
    text = (SMALL.replace("    borrowingLimit: 100\n", "").replace("    reclaimWithinCohort: Any\n", "")
            .replace("    withinClusterQueue: LowerPriority\n", "").replace("      creationIntervalMs: 100\n", ""))
    scenario = read_generator(_write(tmp_path, text))
    cq = scenario.objects[1]["spec"]
    assert cq["resourceGroups"][0]["flavors"][0]["resources"] == [{"name": "cpu", "nominalQuota": "20"}]
    assert cq["preemption"] == {}
    assert {w.arrival for w in scenario.workloads} == {0.0}


def test_resource_flavor_name_is_used(tmp_path):
    scenario = read_generator(_write(tmp_path, "resourceFlavor:\n  name: cpu-pool\n" + SMALL))
    assert scenario.objects[0]["metadata"]["name"] == "cpu-pool"
    assert scenario.objects[1]["spec"]["resourceGroups"][0]["flavors"][0]["name"] == "cpu-pool"


def test_zero_counts_generate_nothing(tmp_path):
    scenario = read_generator(_write(tmp_path, SMALL.replace("    - count: 3\n", "    - count: 0\n")))
    assert _kinds(scenario)["ClusterQueue"] == 2
    assert scenario.workloads == ()


@pytest.mark.parametrize(("ms", "text"), [(0, "0s"), (200, "0.2s"), (150, "0.15s"), (1000, "1s"),
                                          (1234, "1.234s"), (90_000, "90s"), (1, "0.001s")])
def test_runtime_text_is_exact(ms, text):
    assert runtime_text(ms) == text


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(queues=st.integers(0, 3), counts=st.lists(st.integers(0, 6), min_size=1, max_size=3),
       templates=st.integers(1, 3), interval=st.integers(0, 1000))
def test_counts_and_arrivals_follow_the_config(tmp_path, queues, counts, templates, interval):
    config = {"cohorts": [{"className": "c", "count": 2, "queuesSets": [{
        "className": "q", "count": queues, "nominalQuota": 4,
        "workloadsSets": [{"count": n, "creationIntervalMs": interval,
                           "workloads": [{"className": f"t{i}", "request": 1} for i in range(templates)]}
                          for n in counts]}]}]}
    scenario = read_generator(_write(tmp_path, json.dumps(config), "g.json"))
    assert len(scenario.workloads) == 2 * queues * sum(counts) * templates
    assert _kinds(scenario)["LocalQueue"] == 2 * queues
    arrivals = [w.arrival for w in scenario.workloads]
    assert arrivals == sorted(arrivals)
    for w in scenario.workloads:
        _, set_index, rnd, ti = w.manifest["metadata"]["name"].rsplit("-", 3)
        assert w.arrival == (int(rnd) * templates + int(ti) + 1) * interval / 1000


# ------------------------------------------------------------------------------ refusals ---

def _line_col(text: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    at = -1
    for _ in range(occurrence):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def _refused(tmp_path, text: str) -> GeneratorError:
    path = _write(tmp_path, text)
    with pytest.raises(GeneratorError) as info:
        read_generator(path)
    err = info.value
    assert err.file == path
    assert str(err) == f"{path}:{err.line}:{err.column}: {err.message}"
    return err


REFUSALS = [
    # (name, edit of SMALL, text at the reported position, words of the message)
    ("unknown top-level key", lambda s: s + "extra: 1\n", "extra", "unknown key 'extra'"),
    ("unknown key in a template", lambda s: s.replace("        priority: 50\n", "        priority: 50\n        gpus: 2\n"),
     "gpus", "unknown key 'gpus' in workload template cohorts[0].queuesSets[0].workloadsSets[0].workloads[0]"),
    ("unknown key in a queues set", lambda s: s.replace("    count: 2\n", "    count: 2\n    lendingLimit: 5\n"),
     "lendingLimit", "unknown key 'lendingLimit'"),
    ("negative workloads count", lambda s: s.replace("    - count: 3\n", "    - count: -3\n"),
     "-3", "cohorts[0].queuesSets[0].workloadsSets[0].count must not be negative (got -3)"),
    ("negative queue count", lambda s: s.replace("    count: 2\n", "    count: -2\n"),
     "-2", "cohorts[0].queuesSets[0].count must not be negative"),
    ("negative cohort count", lambda s: s.replace("  count: 1\n", "  count: -1\n"),
     "-1", "cohorts[0].count must not be negative"),
    ("negative interval", lambda s: s.replace("creationIntervalMs: 100", "creationIntervalMs: -100"),
     "-100", "creationIntervalMs must not be negative"),
    ("negative runtime", lambda s: s.replace("runtimeMs: 200", "runtimeMs: -200"),
     "-200", "runtimeMs must not be negative"),
    ("count as a string", lambda s: s.replace("    - count: 3\n", "    - count: \"3\"\n"),
     "\"3\"", "workloadsSets[0].count must be an integer, not a string"),
    ("count as a float", lambda s: s.replace("    - count: 3\n", "    - count: 2.5\n"),
     "2.5", "must be an integer, not a number"),
    ("count as a boolean", lambda s: s.replace("    - count: 3\n", "    - count: true\n"),
     "true", "must be an integer, not a boolean"),
    ("priority past int32", lambda s: s.replace("priority: 50", "priority: 2147483648"),
     "2147483648", "priority is 2147483648, more than the largest allowed (2,147,483,647)"),
    ("priority below int32", lambda s: s.replace("priority: 50", "priority: -2147483649"),
     "-2147483649", "priority must be at least -2147483648"),
    ("runtime past Go's Duration", lambda s: s.replace("runtimeMs: 200", "runtimeMs: 9223372036855"),
     "9223372036855", "runtimeMs is 9223372036855, more than the largest allowed"),
    ("missing request", lambda s: s.replace("        request: 1\n", ""),
     "className: small", "missing required field 'request'"),
    ("missing nominal quota", lambda s: s.replace("    nominalQuota: 20\n", ""),
     "className: cq", "queues set cohorts[0].queuesSets[0]: missing required field 'nominalQuota'"),
    ("missing cohorts", lambda s: "resourceFlavor:\n  name: rf\n", "resourceFlavor",
     "missing required field 'cohorts'"),
    ("null count", lambda s: s.replace("  count: 1\n", "  count:\n"),
     "className: cohort", "missing required field 'count'"),
    ("empty cohorts", lambda s: "cohorts: []\n", "[]", "cohorts must not be empty"),
    ("cohorts as a mapping", lambda s: "cohorts:\n  a: 1\n", "a: 1", "cohorts must be a list, not a mapping"),
    ("config as a list", lambda s: "- cohorts: []\n", "- cohorts", "the generator config must be a mapping, not a list"),
    ("template as a string", lambda s: s.replace("      - className: small\n        runtimeMs: 200\n"
                                                 "        priority: 50\n        request: 1\n", "      - small\n"),
     "small", "workload template cohorts[0].queuesSets[0].workloadsSets[0].workloads[0] must be a mapping"),
    ("bad request quantity", lambda s: s.replace("request: 1", "request: one"),
     "one", "workloads[0].request:"),
    ("negative request", lambda s: s.replace("request: 1", "request: \"-1\""),
     "\"-1\"", "request must not be negative"),
    ("request as a list", lambda s: s.replace("request: 1", "request: [1]"),
     "[1]", "must be a quantity such as 20 or \"500m\", not a list"),
    ("bad reclaim policy", lambda s: s.replace("reclaimWithinCohort: Any", "reclaimWithinCohort: Sometimes"),
     "Sometimes", "reclaimWithinCohort must be one of Never, LowerPriority, Any, not 'Sometimes'"),
    ("reclaim policy of the other field", lambda s: s.replace("withinClusterQueue: LowerPriority",
                                                             "withinClusterQueue: Any"),
     "Any\n    workloadsSets", "withinClusterQueue must be one of Never, LowerPriority, LowerOrNewerEqualPriority"),
    ("TAS level without a topology", lambda s: s.replace("        request: 1\n",
                                                          "        request: 1\n        tasLevel: rack\n"),
     "rack", "needs a 'topology' in the config"),
    ("TAS topology without levels", lambda s: "topology:\n  name: t\n" + s, "topology",
     "topology topology: missing required field 'levels'"),
    ("class name not a DNS label", lambda s: s.replace("className: cq", "className: Team_A"),
     "Team_A", "className 'Team_A' is not a valid name part"),
    ("class name too long", lambda s: s.replace("className: cq", "className: " + "q" * 60),
     "q" * 60, "longer than 63 characters"),
    ("ClusterQueue created twice", lambda s: s + s.split("\n", 1)[1],
     ("cq\n    count", 2), "would be created twice"),
    ("two documents", lambda s: s + "---\n" + s, ("cohorts", 2), "more than one YAML document"),
    ("duplicate key", lambda s: s.replace("        priority: 50\n", "        priority: 50\n        priority: 60\n"),
     "priority: 60", "duplicate key 'priority'"),
    ("YAML syntax error", lambda s: s.replace("request: 1", "request: [1"), None, "YAML syntax error"),
]


@pytest.mark.parametrize(("edit", "at", "words"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_refused_with_its_position(tmp_path, edit, at, words):
    text = edit(SMALL)
    err = _refused(tmp_path, text)
    assert words in err.message
    if at is None:  # where libyaml notices it
        assert err.line > 1
        return
    needle, occurrence = at if isinstance(at, tuple) else (at, 1)
    assert (err.line, err.column) == _line_col(text, needle, occurrence)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(GeneratorError, match="no such file"):
        read_generator(str(tmp_path / "absent.yaml"))
    with pytest.raises(GeneratorError, match="is a directory"):
        read_generator(str(tmp_path))


def test_empty_file(tmp_path):
    err = _refused(tmp_path, "# nothing here\n")
    assert "empty file" in err.message


# ------------------------------------------------------------------------- hostile input ---

def test_a_trillion_workloads_are_refused_before_anything_is_built(tmp_path):
    text = SMALL.replace("    - count: 3\n", "    - count: 1000000000000\n")
    err = _refused(tmp_path, text)
    assert (err.line, err.column) == _line_col(text, "1000000000000")
    assert "generates at least 2,000,000,000,000 Workloads" in err.message
    assert f"more than the {MAX_WORKLOADS:,} simulate accepts" in err.message


def test_counts_multiplied_past_the_limit_point_at_the_largest(tmp_path):
    text = SMALL.replace("  count: 1\n", "  count: 1000000\n").replace("    count: 2\n", "    count: 10\n")
    err = _refused(tmp_path, text)
    assert "ClusterQueues" in err.message and f"{MAX_CLUSTER_QUEUES:,}" in err.message
    assert (err.line, err.column) == _line_col(text, "1000000")


def test_many_small_sets_add_up_to_the_limit(tmp_path):
    sets = "".join("    - count: 400000\n      workloads:\n      - className: w\n        request: 1\n"
                   for _ in range(2))
    text = SMALL.split("    workloadsSets:\n")[0] + "    workloadsSets:\n" + sets
    err = _refused(tmp_path, text)
    assert "Workloads" in err.message
    assert (err.line, err.column) == _line_col(text, "400000", 2)


def test_alias_bomb_is_refused(tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, "
              f"*a{i - 1}, *a{i - 1}, *a{i - 1}]" for i in range(1, 10)]
    err = _refused(tmp_path, "\n".join(lines) + "\ncohorts: *a9\n")
    assert "alias" in err.message


def test_deep_nesting_is_refused(tmp_path):
    err = _refused(tmp_path, "cohorts: " + "[" * 5000 + "]" * 5000 + "\n")
    assert "nesting" in err.message


def test_binary_file_is_refused(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_bytes(b"cohorts:\x00\x01\x02")
    with pytest.raises(GeneratorError, match="NUL"):
        read_generator(str(path))
