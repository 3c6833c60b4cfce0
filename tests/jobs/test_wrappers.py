"""AppWrapper (declared and inferred pod sets) and TrainJob (pod sets from the training runtime)."""

from tests.jobs.requests import pod_sets

APPWRAPPER = """
apiVersion: workload.codeflare.dev/v1beta2
kind: AppWrapper
metadata: {name: aw, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
spec:
  components:
  - podSets: [{path: "template.spec.replicatedJobs[1].template.spec.template", replicas: 6}]
    template:
      apiVersion: jobset.x-k8s.io/v1alpha2
      kind: JobSet
      spec:
        replicatedJobs:
        - {name: a, template: {spec: {template: {spec: {containers: [{name: a}]}}}}}
        - {name: b, template: {spec: {template: {spec: {containers: [{name: b}]}}}}}
  - template:
      apiVersion: apps/v1
      kind: Deployment
      spec: {replicas: 2, template: {spec: {containers: [{name: d}]}}}
"""


def test_appwrapper_declared_then_inferred_pod_sets(derive):
    workloads, _, _ = derive(APPWRAPPER)
    assert pod_sets(workloads[0]) == [("aw-0", 6), ("aw-1", 2)]
    assert workloads[0]["spec"]["podSets"][0]["template"]["spec"]["containers"][0]["name"] == "b"


def test_appwrapper_unknown_component_kind_needs_declared_pod_sets(derive):
    text = APPWRAPPER.replace("kind: Deployment", "kind: DaemonSet")
    _, skipped, diags = derive(text)
    assert "needs podSets" in skipped["appwrapper/ns/aw"]
    assert diags[0].field == "spec.components[1].template.kind"


TRAINJOB = """
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata: {name: torch, namespace: ns}
spec:
  template:
    spec:
      replicatedJobs:
      - name: initializer
        template: {spec: {template: {spec: {containers: [{name: i}]}}}}
      - name: node
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}
          spec: {template: {spec: {containers: [{name: n}]}}}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: tj, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
spec:
  runtimeRef: {name: torch, kind: TrainingRuntime}
  trainer: {numNodes: 4}
"""


def test_trainjob_num_nodes_sets_the_trainer_step(derive):
    workloads, _, _ = derive(TRAINJOB)
    assert pod_sets(workloads[0]) == [("initializer", 1), ("node", 4)]


def test_trainjob_without_its_runtime_is_skipped(derive):
    workloads, skipped, _ = derive(TRAINJOB.replace("name: torch, kind", "name: other, kind"))
    assert workloads == [] and "TrainingRuntime 'other' is not in the input" in skipped["trainjob/ns/tj"]


def test_appwrapper_path_index_of_thousands_of_digits_is_out_of_range():
    # Python's int() refuses more than 4,300 digits (found by the fuzzer); such an index is past any list.
    from quotactl.jobs.appwrapper import parse_path

    assert parse_path("template.spec.replicatedJobs[0].template") == ("template", "spec", "replicatedJobs", 0,
                                                                      "template")
    assert parse_path("a[" + "9" * 5000 + "]") == ("a", 2**63)
    assert parse_path("a[" + "0" * 5000 + "7]") == ("a", 7)


def test_pod_template_metadata_must_be_a_mapping_and_null_is_none():
    # The integrations add their labels to the template's metadata; a list there crashed them
    # (found by the fuzzer on a Deployment).
    import pytest

    from quotactl.jobs.fields import Malformed
    from quotactl.jobs.podtemplate import pod_template

    spec = {"containers": [{"name": "c"}]}
    with pytest.raises(Malformed, match="must be an object"):
        pod_template({"t": {"metadata": ["x"], "spec": spec}}, ("t",))
    with pytest.raises(Malformed, match="must be an object"):
        pod_template({"t": {"metadata": {"labels": "x"}, "spec": spec}}, ("t",))
    out = pod_template({"t": {"metadata": None, "spec": spec}}, ("t",))
    assert out["metadata"] == {}
    out = pod_template({"t": {"metadata": {"labels": None}, "spec": spec}}, ("t",))
    assert out["metadata"] == {"labels": {}}
