"""Unit and corpus tests for the Workload, LocalQueue, priority, Configuration and cross-object
rules (KQ4xx, KQ5xx, KQ8xx)."""

from __future__ import annotations

import json
import textwrap

import pytest

from quotactl.diagnostics import Severity
from quotactl.kueue.admissibility import quota_snapshot
from quotactl.kueue.options import engine_options
from quotactl.kueue.quota import potential_available
from quotactl.lint.context import LintOptions
from quotactl.lint.k8s_checks import domain_prefixed_path_errors, parse_duration, toleration_cel_problems
from quotactl.lint.runner import lint_paths
from quotactl.load.objects import load
from quotactl.model.kueue import build_cluster
from tests.acceptance.accept import field_matches
from tests.helpers import CASES
from tests.lint.util import by_code, lint_text

MINE = ("KQ4", "KQ5", "KQ8")


def codes(diags, prefix=MINE):
    return [d.code for d in diags if d.code.startswith(prefix)]


# ------------------------------------------------------------------ corpora --------------

STATES = sorted(
    p for suite in ("kueue-assign", "kueue-preempt", "kueue-schedule") for p in (CASES / suite).glob("*/state.yaml")
)

# The scheduler tests' common fixtures deliberately contain one ClusterQueue naming a missing flavor and
# one LocalQueue naming a missing ClusterQueue (to test inactive queues).  Those two findings are true
# positives at the severity the rules define; everything else in these clusters must be error-free.
KNOWN_BROKEN_FIXTURES = {
    ("KQ501", "ClusterQueue/flavor-nonexistent-cq", "spec.resourceGroups[0].flavors[0].name"),
    ("KQ502", "LocalQueue/sales/cq-nonexistent-queue", "spec.clusterQueue"),
}


@pytest.mark.parametrize("state", STATES, ids=[f"{p.parent.parent.name}/{p.parent.name}"[:90] for p in STATES])
def test_real_cluster_states_have_no_errors(state):
    diags = lint_paths([str(state)]).diagnostics
    errors = [(d.code, d.object, d.field) for d in diags
              if d.code.startswith(MINE) and d.severity == Severity.ERROR]
    unexpected = [e for e in errors if e not in KNOWN_BROKEN_FIXTURES]
    assert not unexpected, unexpected
    assert not [d for d in diags if d.code == "QL999"]


LINT_CASES = sorted((CASES / "kueue-lint").glob("*/case.json"))


@pytest.mark.parametrize("case", LINT_CASES, ids=[p.parent.name for p in LINT_CASES])
def test_lint_cases(case):
    spec = json.loads(case.read_text())
    gates = (spec.get("options") or {}).get("featureGates") or {}
    diags = lint_paths([str(case.parent / "input.yaml")], LintOptions(feature_gates=gates)).diagnostics
    errors = [d for d in diags if d.severity == Severity.ERROR]
    if spec["expect"].get("valid"):
        assert not [d for d in errors if d.code.startswith(MINE)], [(d.code, d.message) for d in errors]
        return
    for e in spec["expect"]["errors"]:
        kind = (e.get("object") or "").split("/")[0]
        if kind not in ("Workload", "LocalQueue", "WorkloadPriorityClass"):
            continue  # ClusterQueue / Cohort / ResourceFlavor cases belong to other rules
        assert any(field_matches(e.get("field"), d.field) for d in errors), (e, [(d.code, d.field) for d in errors])


# ------------------------------------------------------------- robustness ----------------

BROKEN = """
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w1, namespace: ns, annotations: {kueue.x-k8s.io/admission-gated-by: 7, kueue.x-k8s.io/priority-boost: [1]}}
spec:
  queueName: 5
  priority: "high"
  priorityClassRef: "low"
  podSets:
  - "not a pod set"
  - name: [x]
    count: "3"
    minCount: {a: 1}
    topologyRequest: [1, 2]
    template:
      metadata: {labels: [a], annotations: "x"}
      spec:
        containers: {c: 1}
        initContainers: [7, {resources: {requests: [1], limits: {cpu: {x: 1}}}}]
        resources: "big"
status:
  admission: {clusterQueue: [1], podSetAssignments: {a: 1}}
  conditions: [1, {type: QuotaReserved, status: true}, {type: [1]}]
  reclaimablePods: [1, {name: 2, count: x}]
  admissionChecks: [{podSetUpdates: [1, {name: 3, tolerations: "x", labels: [1], nodeSelector: 5}]}]
  clusterName: {a: 1}
  nominatedClusterNames: "x"
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: w2}
spec: [1, 2]
status: "done"
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq, namespace: ns}
spec: {clusterQueue: [1], stopPolicy: 3, fairSharing: 1}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  cohortName: [1]
  namespaceSelector: "all"
  resourceGroups: [1, {coveredResources: "cpu", flavors: [1, {name: 2, resources: [1, {name: cpu, nominalQuota: x, borrowingLimit: [1]}]}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: co}
spec: {parentName: {x: 1}, resourceGroups: "x"}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: system-x}
value: "big"
globalDefault: "yes"
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: default}
value: [1]
---
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
fairSharing: {preemptionStrategies: "x"}
admissionFairSharing: {usageHalfLifeTime: [1], usageSamplingInterval: 5, resourceWeights: [1]}
waitForPodsReady: {timeout: {a: 1}, requeuingStrategy: {backoffLimitCount: "x"}}
resources: {transformations: [1, {input: [1]}], quotaCheckStrategy: [1], excludeResourcePrefixes: "x"}
---
apiVersion: v1
kind: Namespace
metadata: {name: ns, labels: [1]}
"""


def test_rules_never_crash_on_broken_input(tmp_path):
    for opts in ({}, {"cross_refs": True}, {"cross_refs": False}):
        diags = lint_text(tmp_path, BROKEN, **opts)
        assert not [d for d in diags if d.code == "QL999"]


# ------------------------------------------------------------- partial input -------------

CQ_ONLY = """
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: a}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{name: cpu, nominalQuota: 1}]
    - name: spot
      resources: [{name: cpu, nominalQuota: 1}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: ns}
spec: {clusterQueue: b}
"""


def test_partial_input_emits_one_note(tmp_path):
    diags = lint_text(tmp_path, CQ_ONLY)
    notes = by_code(diags, "KQ500")
    assert len(notes) == 1
    assert notes[0].severity == Severity.INFO
    assert "input has no ResourceFlavor objects; 2 references to flavors not checked" in notes[0].message
    assert "--cross-refs" in notes[0].message
    assert not by_code(diags, "KQ501")
    # the LocalQueue's ClusterQueue IS checked: the input has ClusterQueues
    assert [d.field for d in by_code(diags, "KQ502")] == ["spec.clusterQueue"]


def test_cross_refs_forces_checks_and_silences_note(tmp_path):
    diags = lint_text(tmp_path, CQ_ONLY, cross_refs=True)
    assert not by_code(diags, "KQ500")
    assert len(by_code(diags, "KQ501")) == 2
    diags = lint_text(tmp_path, CQ_ONLY, cross_refs=False)
    assert not by_code(diags, "KQ500") and not by_code(diags, "KQ501") and not by_code(diags, "KQ502")


def test_flavor_not_found_suggests_close_name(tmp_path):
    diags = lint_text(tmp_path, CQ_ONLY + """
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: defualt}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: spot}
""")
    hits = by_code(diags, "KQ501")
    assert len(hits) == 1 and hits[0].severity == Severity.ERROR
    assert "FlavorNotFound" in hits[0].message and '"defualt"' in hits[0].hint


# ------------------------------------------------------------- cohorts and quota ---------

def _cluster(tmp_path, text):
    f = tmp_path / "c.yaml"
    f.write_text(textwrap.dedent(text))
    return build_cluster(load([str(f)]).objects)


def _cq(name, cohort, nominal, bl=None, ll=None):
    extra = (f", borrowingLimit: {bl}" if bl is not None else "") + (f", lendingLimit: {ll}" if ll is not None else "")
    return f"""
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {{name: {name}}}
spec:
  cohortName: {cohort}
  namespaceSelector: {{}}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{{name: cpu, nominalQuota: {nominal}{extra}}}]
"""


def test_potential_available_flat_example(tmp_path):
    # a flat cohort with limits
    c = _cluster(tmp_path, _cq("a", "research", 10, bl=5) + _cq("b", "research", 10, ll=4) + _cq("c", "research", 0))
    snap = quota_snapshot(c, engine_options(c))
    fr = ("default", "cpu")
    assert snap.cohorts["research"].subtree_quota[fr] == 14_000
    assert potential_available(snap.cluster_queues["a"], fr) == 14_000
    assert potential_available(snap.cluster_queues["b"], fr) == 20_000
    assert potential_available(snap.cluster_queues["c"], fr) == 14_000


def test_potential_available_hierarchical_example(tmp_path):
    # hierarchical cohorts
    text = _cq("a", "c1", 6) + _cq("b", "c1", 4, ll=1) + _cq("d", "c2", 10) + """
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: c1}
spec:
  parentName: r
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{name: cpu, nominalQuota: 0, borrowingLimit: 4}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: c2}
spec: {parentName: r}
"""
    c = _cluster(tmp_path, text)
    snap = quota_snapshot(c, engine_options(c))
    fr = ("default", "cpu")
    assert snap.cohorts["c1"].subtree_quota[fr] == 7_000
    assert snap.cohorts["r"].subtree_quota[fr] == 17_000
    assert potential_available(snap.cohorts["c1"], fr) == 11_000
    assert potential_available(snap.cluster_queues["a"], fr) == 11_000
    assert potential_available(snap.cluster_queues["b"], fr) == 14_000
    assert potential_available(snap.cluster_queues["d"], fr) == 17_000


def test_cohort_cycle_message_and_members(tmp_path):
    text = """
    ---
    apiVersion: kueue.x-k8s.io/v1beta2
    kind: Cohort
    metadata: {name: a}
    spec: {parentName: b}
    ---
    apiVersion: kueue.x-k8s.io/v1beta2
    kind: Cohort
    metadata: {name: b}
    spec: {parentName: a}
    ---
    apiVersion: kueue.x-k8s.io/v1beta2
    kind: Cohort
    metadata: {name: leaf}
    spec: {parentName: a}
    """
    found = _cluster(tmp_path, text).cohort_cycles()
    assert found.cycles == (("a", "b"),) and found.doomed == {"a", "b", "leaf"}
    diags = lint_text(tmp_path, textwrap.dedent(text) + _cq("team", "leaf", 1))
    msgs = sorted(d.message for d in by_code(diags, "KQ503"))
    assert len(msgs) == 2
    assert msgs[0].startswith("cohort cycle a -> b -> a") and msgs[1].startswith("cohort cycle b -> a -> b")
    assert "inactive ClusterQueues: team" in msgs[0]


def test_duplicates_point_at_first(tmp_path):
    text = """
    ---
    apiVersion: kueue.x-k8s.io/v1beta1
    kind: ResourceFlavor
    metadata: {name: default}
    ---
    apiVersion: kueue.x-k8s.io/v1beta2
    kind: ResourceFlavor
    metadata: {name: default}
    """
    hits = by_code(lint_text(tmp_path, text), "KQ504")
    assert len(hits) == 1 and hits[0].line > 3
    assert hits[0].related and hits[0].related[0].endswith(":3")


# ------------------------------------------------------------- workload rules ------------

WL = """
---
apiVersion: kueue.x-k8s.io/{version}
kind: Workload
metadata:
  name: w
  namespace: ns
  annotations: {{{annotations}}}
spec:
{spec}
  podSets:
  - name: main
    count: 3
{podset}    template:
      spec:
        containers:
        - name: c
          resources: {{requests: {{cpu: "1"}}}}
"""


def wl(version="v1beta2", annotations="", spec="  queueName: q", podset=""):
    return WL.format(version=version, annotations=annotations, spec=spec, podset=podset)


def test_v1beta1_priority_class_name_without_priority(tmp_path):
    diags = lint_text(tmp_path, wl("v1beta1", spec="  priorityClassName: high\n  priorityClassSource: ''"))
    hits = by_code(diags, "KQ402")
    assert len(hits) == 1 and "priorityClassName is set" in hits[0].message and hits[0].field == "spec"


def test_partial_admission_gate_off_clears_min_count(tmp_path):
    text = wl(podset="    minCount: 5\n")
    assert by_code(lint_text(tmp_path, text), "KQ403")
    assert not by_code(lint_text(tmp_path, text, feature_gates={"PartialAdmission": False}), "KQ403")


def test_elastic_gate(tmp_path):
    text = wl(annotations='kueue.x-k8s.io/elastic-job: "true"', podset="    minCount: 2\n")
    assert by_code(lint_text(tmp_path, text), "KQ405")
    assert not by_code(lint_text(tmp_path, text, feature_gates={"ElasticJobsViaWorkloadSlices": False}), "KQ405")


def test_priority_boost_only_unless_gate_explicitly_off(tmp_path):
    text = wl(annotations='kueue.x-k8s.io/priority-boost: "9999999999"')
    assert by_code(lint_text(tmp_path, text), "KQ418")
    assert by_code(lint_text(tmp_path, text, feature_gates={"PriorityBoost": True}), "KQ418")
    assert not by_code(lint_text(tmp_path, text, feature_gates={"PriorityBoost": False}), "KQ418")


def test_admission_gated_by_trims_spaces(tmp_path):
    ok = wl(annotations='kueue.x-k8s.io/admission-gated-by: " example.com/a , example.com/b "')
    assert not by_code(lint_text(tmp_path, ok), "KQ417")
    bad = wl(annotations='kueue.x-k8s.io/admission-gated-by: "example.com/gate name"')
    hits = by_code(lint_text(tmp_path, bad), "KQ417")
    assert hits and hits[0].field == "metadata.annotations[kueue.x-k8s.io/admission-gated-by]"
    assert not by_code(lint_text(tmp_path, bad, feature_gates={"AdmissionGatedBy": False}), "KQ417")


def test_priority_differs_from_class_v1beta1(tmp_path):
    text = wl("v1beta1", spec="  priorityClassName: high\n  priorityClassSource: kueue.x-k8s.io/workloadpriorityclass\n"
                              "  priority: 5") + """
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: WorkloadPriorityClass
metadata: {name: high}
value: 1000
"""
    hits = by_code(lint_text(tmp_path, text), "KQ420")
    assert len(hits) == 1 and hits[0].severity == Severity.WARNING
    # v0.15+: the WorkloadPriorityClass controller writes the class value into spec.priority.
    assert hits[0].message.endswith("so it schedules and preempts this Workload with priority 1000")
    assert "writes the WorkloadPriorityClass value into spec.priority" in hits[0].message
    # v0.14 had no such controller: the value copied at creation stays.
    old = by_code(lint_text(tmp_path, text, kueue_version="v0.14"), "KQ420")
    assert len(old) == 1 and old[0].message.endswith("with priority 5")
    assert "does not follow class changes" in old[0].message


def test_priority_differs_from_pod_priority_class(tmp_path):
    text = wl(spec="  priorityClassRef: {group: scheduling.k8s.io, kind: PriorityClass, name: pc}\n"
                   "  priority: 7") + """
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: pc}
value: 70
"""
    hits = by_code(lint_text(tmp_path, text), "KQ420")
    assert len(hits) == 1 and hits[0].message == (
        "spec.priority is 7 but PriorityClass pc has value 70; Kueue copied the class value when it created the "
        "Workload and does not follow PriorityClass changes, so it schedules and preempts this Workload with "
        "priority 7")
    assert not by_code(lint_text(tmp_path, text.replace("value: 70", "value: 7")), "KQ420")


def test_resource_usage_divisibility_uses_kueue_units(tmp_path):
    text = wl(spec="  queueName: q") + """
status:
  admission:
    clusterQueue: cq
    podSetAssignments:
    - name: main
      count: 3
      flavors: {cpu: default, memory: default}
      resourceUsage: {cpu: 1500m, memory: "3"}
  conditions:
  - {type: QuotaReserved, status: "True", reason: R, message: m, lastTransitionTime: "2026-01-01T00:00:00Z"}
"""
    # 1500m / 3 = 500m: fine; memory 3 / 3: fine
    assert not by_code(lint_text(tmp_path, text), "KQ413")
    hits = by_code(lint_text(tmp_path, text.replace("1500m", "1001m")), "KQ413")
    assert [d.field for d in hits] == ["status.admission.podSetAssignments[0].resourceUsage[cpu]"]


# ------------------------------------------------------------- admissibility -------------

CLUSTER = """
---
apiVersion: v1
kind: Namespace
metadata: {name: ns}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{name: cpu, nominalQuota: 2}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: ns}
spec: {clusterQueue: cq}
"""


def test_exceeds_max_quota_and_partial_admission(tmp_path):
    hits = by_code(lint_text(tmp_path, CLUSTER + wl()), "KQ512")
    assert len(hits) == 1 and "3 > maximum capacity (2)" in hits[0].message
    assert not by_code(lint_text(tmp_path, CLUSTER + wl(podset="    minCount: 2\n")), "KQ512")


def test_uncovered_resource_respects_ignore_undeclared(tmp_path):
    text = CLUSTER + wl().replace('cpu: "1"', 'cpu: "1", nvidia.com/gpu: "1"')
    hits = by_code(lint_text(tmp_path, text), "KQ511")
    assert len(hits) == 1 and "resource nvidia.com/gpu unavailable in ClusterQueue" in hits[0].message
    cfg = "\n---\napiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nresources:\n  quotaCheckStrategy: IgnoreUndeclared\n"
    assert not by_code(lint_text(tmp_path, text + cfg), "KQ511")


def test_namespace_selector_uses_metadata_name_label(tmp_path):
    text = CLUSTER.replace("namespaceSelector: {}", "namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: ns}}")
    assert not by_code(lint_text(tmp_path, text), "KQ510")
    hits = by_code(lint_text(tmp_path, text.replace("metadata.name: ns}", "metadata.name: other}")), "KQ510")
    assert len(hits) == 1 and hits[0].severity == Severity.WARNING


# ------------------------------------------------------------- helpers -------------------

@pytest.mark.parametrize("text,seconds", [
    ("5m", 300), ("1h30m", 5400), ("0", 0), ("0s", 0), ("-1s", -1), ("1.5s", 1.5), ("300ms", 0.3),
    ("", None), ("5", None), ("1d", None), ("m", None),
])
def test_parse_duration(text, seconds):
    got = parse_duration(text)
    assert got == pytest.approx(seconds) if seconds is not None else got is None


@pytest.mark.parametrize("gate,ok", [
    ("example.com/gate", True), ("acme.io/foo/bar", True), ("this is an invalid value", False),
    ("example .com/gate", False), ("example.com/gate name", False), ("nogate", False), ("/x", False),
])
def test_domain_prefixed_path(gate, ok):
    assert (not domain_prefixed_path_errors(gate)) == ok


def test_toleration_rules():
    probs = dict(toleration_cel_problems([
        {"operator": "Equal", "value": "x"},
        {"key": "k", "operator": "Exists", "value": "v"},
        {"key": "k", "effect": "NoSchedule", "tolerationSeconds": 1},
        {"key": "k", "operator": "Gt", "effect": "Bad"},
        {"operator": "Exists"},
    ]))
    assert probs == {
        "operator must be Exists when 'key' is empty, which means 'match all values and all keys'": [0],
        "effect must be 'NoExecute' when 'tolerationSeconds' is set": [2],
        "supported toleration values: 'Equal'(default), 'Exists'": [3],
        "a value must be empty when 'operator' is 'Exists'": [1],
        "supported taint effect values: 'NoSchedule', 'PreferNoSchedule', 'NoExecute'": [3],
    }
