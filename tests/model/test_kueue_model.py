"""The typed Kueue model: version normalisation, CRD defaults, lenient building, pod requests."""

import pytest

from quotactl.load.objects import load
from quotactl.model.kueue import (
    ClusterQueue,
    Cohort,
    KueueConfiguration,
    Workload,
    build_cluster,
)
from quotactl.model.quantity import Quantity


def _cluster(tmp_path, text):
    f = tmp_path / "in.yaml"
    f.write_text(text)
    return build_cluster(load([str(f)]).objects)


def test_cohort_field_is_normalised_across_versions(tmp_path):
    c = _cluster(tmp_path, """
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: old}
spec: {cohort: shared}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: new}
spec: {cohortName: shared}
---
apiVersion: kueue.x-k8s.io/v1alpha1
kind: Cohort
metadata: {name: child}
spec: {parent: shared}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: other}
spec: {parentName: shared}
""")
    assert c.cluster_queues["old"].cohort == "shared" and c.cluster_queues["old"].cohort_path == ("spec", "cohort")
    assert c.cluster_queues["new"].cohort == "shared"
    assert c.cohorts["child"].parent == "shared" and c.cohorts["child"].parent_path == ("spec", "parent")
    assert c.cohorts["other"].parent == "shared"
    assert {cq.name for cq in c.cohort_members("shared")} == {"old", "new"}
    assert c.cohort_names() == {"shared", "child", "other"}


def test_cluster_queue_defaults(tmp_path):
    cq: ClusterQueue = _cluster(tmp_path, """
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: cq}
spec:
  flavorFungibility: {whenCanBorrow: Borrow}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{name: cpu, nominalQuota: 1500m, borrowingLimit: "2"}]
""").cluster_queues["cq"]
    assert cq.queueing_strategy == "BestEffortFIFO"
    assert cq.stop_policy == "None"
    assert cq.namespace_selector is None  # null selector: no namespace may use it
    assert cq.preemption.reclaim_within_cohort == "Never" and cq.preemption.borrow_within_cohort_policy == "Never"
    assert cq.flavor_fungibility.when_can_borrow == "MayStopSearch"  # v1beta1 alias Borrow
    assert cq.flavor_fungibility.when_can_preempt == "TryNextFlavor"
    rq = cq.quota("default", "cpu")
    assert rq.nominal == Quantity.parse("1.5") and rq.borrowing_limit == Quantity.parse(2) and rq.lending_limit is None
    assert rq.path == ("spec", "resourceGroups", 0, "flavors", 0, "resources", 0)


def test_workload_v1beta1_priority_and_requests(tmp_path):
    c = _cluster(tmp_path, """
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: w, namespace: ns, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  queueName: q
  priorityClassName: high
  priorityClassSource: kueue.x-k8s.io/workloadpriorityclass
  priority: 1000
  podSets:
  - name: main
    count: 3
    template:
      spec:
        initContainers:
        - name: init
          resources: {requests: {cpu: "4"}}
        - name: sidecar
          restartPolicy: Always
          resources: {requests: {cpu: 500m, memory: 1Gi}}
        containers:
        - name: a
          resources: {requests: {cpu: "1"}, limits: {memory: 2Gi, nvidia.com/gpu: "1"}}
        - name: b
          resources: {requests: {cpu: "1", memory: 1Gi}}
        overhead: {cpu: 100m}
status:
  admission:
    clusterQueue: cq
    podSetAssignments:
    - {name: main, count: 3, flavors: {cpu: default}, resourceUsage: {cpu: "6"}}
  conditions:
  - {type: QuotaReserved, status: "True", reason: QuotaReserved, message: ok, lastTransitionTime: "2026-01-01T00:00:01Z"}
""")
    wl: Workload = c.workloads["ns/w"]
    assert wl.priority_class_ref.is_workload_priority_class and wl.priority_class_ref.name == "high"
    assert wl.priority_class_ref_path == ("spec", "priorityClassName")
    req = wl.pod_sets[0].pod.requests
    # max(containers 2 + sidecar 0.5, init 4 alone) = 4 cpu, + 100m overhead
    assert req["cpu"] == Quantity.parse("4100m")
    assert req["memory"] == Quantity.parse("4Gi")  # 2Gi (limit as request) + 1Gi + sidecar 1Gi
    assert req["nvidia.com/gpu"] == Quantity.parse(1)
    assert wl.has_quota_reservation and not wl.is_pending
    assert wl.admission.pod_set_assignments[0].resource_usage["cpu"] == Quantity.parse(6)


def test_empty_priority_source_drops_the_reference(tmp_path):
    c = _cluster(tmp_path, """
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: w}
spec: {priorityClassName: x, podSets: [{name: main, count: 1, template: {spec: {containers: []}}}]}
""")
    assert c.workloads["default/w"].priority_class_ref is None


def test_configuration_fair_sharing_versions(tmp_path):
    c1 = _cluster(tmp_path, "apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\nfairSharing: {enable: true}\n")
    cfg: KueueConfiguration = c1.configuration
    assert cfg.fair_sharing_enabled
    assert cfg.preemption_strategies == ("LessThanOrEqualToFinalShare", "LessThanInitialShare")
    c2 = _cluster(tmp_path, "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n"
                            "fairSharing: {preemptionStrategies: [LessThanInitialShare]}\n")
    assert c2.configuration.fair_sharing_enabled
    assert c2.configuration.preemption_strategies == ("LessThanInitialShare",)


def test_wrong_types_build_without_errors(tmp_path):
    c = _cluster(tmp_path, """
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: c}
spec: {parentName: 3, resourceGroups: [{coveredResources: cpu, flavors: [{name: 1, resources: [7]}]}]}
""")
    co: Cohort = c.cohorts["c"]
    assert co.parent is None
    assert co.resource_groups[0].flavors[0].resources[0].nominal is None


def test_namespace_selector_matching(tmp_path):
    c = _cluster(tmp_path, """
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector:
    matchLabels: {team: a}
    matchExpressions: [{key: tier, operator: NotIn, values: [dev]}]
""")
    sel = c.cluster_queues["cq"].namespace_selector
    assert sel.matches({"team": "a"}) and sel.matches({"team": "a", "tier": "prod"})
    assert not sel.matches({"team": "a", "tier": "dev"}) and not sel.matches({})


_ADMISSION = """
  admission:
    clusterQueue: cq
    podSetAssignments:
    - {name: main, count: 1, flavors: {cpu: default}, resourceUsage: {cpu: "1"}}"""
_RESERVED = '  - {type: QuotaReserved, status: "True", reason: QuotaReserved, message: ok, lastTransitionTime: "2026-01-01T00:00:01Z"}'
_FINISHED = '  - {type: Finished, status: "True", reason: Succeeded, message: done, lastTransitionTime: "2026-01-01T00:00:02Z"}'


def _workload(tmp_path, active: bool, admission: bool, conditions: list[str]) -> Workload:
    status = (_ADMISSION if admission else "") + ("\n  conditions:\n" + "\n".join(conditions) if conditions else "")
    c = _cluster(tmp_path, f"""
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {{name: w, namespace: ns}}
spec:
  queueName: lq
  active: {str(active).lower()}
  podSets:
  - name: main
    count: 1
    template: {{spec: {{containers: [{{name: c, resources: {{requests: {{cpu: "1"}}}}}}]}}}}
""" + (f"status:{status}\n" if status else ""))
    return c.workloads["ns/w"]


@pytest.mark.parametrize(("active", "admission", "conditions", "queueable", "pending"), [
    # Kueue's workload.IsAdmissible: not finished, active, no quota reservation
    (True, False, [], True, True),
    (False, False, [], False, True),  # deactivated: out of the queues, yet Status() is still Pending
    (True, True, [_RESERVED], False, False),  # holds quota
    (False, True, [_RESERVED], False, False),
    (True, False, [_FINISHED], False, False),
    (True, True, [_RESERVED, _FINISHED], False, False),
    (True, True, [], True, False),  # an admission without QuotaReserved=True reserves nothing
])
def test_queueable_is_kueues_is_admissible_and_pending_its_status(tmp_path, active, admission, conditions,
                                                                   queueable, pending):
    wl = _workload(tmp_path, active, admission, conditions)
    assert wl.is_queueable is queueable
    assert wl.is_pending is pending


_OWNED_WORKLOAD = """
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: w
  namespace: ns
  managedFields:
  - {manager: kubectl, operation: Update, fieldsV1: {"f:spec": {"f:queueName": {}}}}
  - {manager: someone, operation: Update, subresource: status, fieldsV1: {"f:status": {"f:admission": {}}}}
  - manager: kueue-admission
    operation: Apply
    subresource: status
    fieldsV1: {"f:status": {"f:admission": {}, "f:conditions": {}}}
  - {manager: kueue, operation: Apply, subresource: status, fieldsV1: {"f:status": {"f:conditions": {}}}}
spec: {queueName: q, podSets: [{name: main, count: 1, template: {spec: {containers: []}}}]}
status:
  admission: {clusterQueue: cq, podSetAssignments: [{name: main, flavors: {cpu: f}}]}
"""


def test_admission_owner_is_the_last_managed_fields_entry_claiming_it(tmp_path):
    wl = _cluster(tmp_path, _OWNED_WORKLOAD).workloads["ns/w"]
    assert wl.admission.owner == ("kueue-admission", "Apply")


def test_admission_owner_is_unknown_without_managed_fields(tmp_path):
    text = _OWNED_WORKLOAD.split("  managedFields:")[0] + "spec:" + _OWNED_WORKLOAD.split("\nspec:", 1)[1]
    wl = _cluster(tmp_path, text).workloads["ns/w"]
    assert wl.admission is not None and wl.admission.owner is None
