"""Topology-aware scheduling lint: Topology objects (schema + KQ702), pod-set topology levels against
the flavors' Topologies (KQ521), Nodes missing level labels (KQ522), job topology annotations (KQ606).
Messages follow kueue pkg/controller/jobframework/tas_validation.go ValidateTASPodSetRequest."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lint.util import by_code, lint_text

FIXTURES = Path(__file__).parent / "rules" / "kueue"
BASE = (FIXTURES / "KQ606" / "pass.yaml").read_text().split("\n---\napiVersion: batch/v1")[0]


def _job(annotations: str) -> str:
    return BASE + f"""
---
apiVersion: batch/v1
kind: Job
metadata:
  name: job
  namespace: team-a
  labels:
    kueue.x-k8s.io/queue-name: main
spec:
  suspend: true
  parallelism: 2
  template:
    metadata:
      annotations:
{annotations}
    spec:
      restartPolicy: Never
      containers:
      - name: c
        image: example
"""


def _lines(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize(("annotations", "field", "message"), [
    ("        kueue.x-k8s.io/podset-required-topology: cloud.com/rack\n"
     "        kueue.x-k8s.io/podset-preferred-topology: cloud.com/block",
     "spec.template.metadata.annotations",
     'must not contain more than one topology annotation: ["kueue.x-k8s.io/podset-required-topology", '
     '"kueue.x-k8s.io/podset-preferred-topology", "kueue.x-k8s.io/podset-unconstrained-topology"]'),
    ("        kueue.x-k8s.io/podset-unconstrained-topology: \"yes\"",
     "spec.template.metadata.annotations[kueue.x-k8s.io/podset-unconstrained-topology]",
     'Invalid value: "yes": must be a boolean value'),
    ("        kueue.x-k8s.io/podset-slice-required-topology: cloud.com/rack\n"
     "        kueue.x-k8s.io/podset-slice-size: \"0\"",
     "spec.template.metadata.annotations[kueue.x-k8s.io/podset-slice-size]",
     'Invalid value: "0": must be greater than or equal to 1'),
    ("        kueue.x-k8s.io/podset-slice-required-topology: cloud.com/rack\n"
     "        kueue.x-k8s.io/podset-slice-size: four",
     "spec.template.metadata.annotations[kueue.x-k8s.io/podset-slice-size]",
     'Invalid value: "four": must be a numeric value'),
    ("        kueue.x-k8s.io/podset-slice-size: \"2\"",
     "spec.template.metadata.annotations[kueue.x-k8s.io/podset-slice-size]",
     "may not be set when 'kueue.x-k8s.io/podset-slice-required-topology' is not specified"),
    ("        kueue.x-k8s.io/podset-required-topology: \"bad label!\"",
     "spec.template.metadata.annotations[kueue.x-k8s.io/podset-required-topology]",
     'Invalid value: "bad label!": name part must consist of'),
])
def test_job_topology_annotations_follow_kueue_webhook(tmp_path, annotations, field, message):
    text = _job(annotations)
    hits = by_code(lint_text(tmp_path, text), "KQ606")
    assert len(hits) == 1, [h.message for h in hits]
    assert hits[0].field == field
    assert hits[0].message.startswith("job/team-a/job: " + message)
    assert hits[0].line >= _lines(text, "annotations:")


def test_slice_size_value_is_pointed_at(tmp_path):
    text = _job("        kueue.x-k8s.io/podset-slice-required-topology: cloud.com/rack\n"
                "        kueue.x-k8s.io/podset-slice-size: \"-3\"")
    [hit] = by_code(lint_text(tmp_path, text), "KQ606")
    line = _lines(text, "podset-slice-size")
    assert (hit.line, hit.column) == (line, text.splitlines()[line - 1].index('"-3"') + 1)


def test_level_finding_points_at_the_request_value(tmp_path):
    text = (FIXTURES / "KQ521" / "fail.yaml").read_text()
    hits = by_code(lint_text(tmp_path, text), "KQ521")
    required = _lines(text, "required: cloud.com/zone")
    preferred = _lines(text, "podset-preferred-topology: cloud.com/zone")
    assert [(h.line, h.column) for h in hits] == [
        (required, text.splitlines()[required - 1].index("cloud.com/zone") + 1),
        (preferred, text.splitlines()[preferred - 1].index("cloud.com/zone") + 1)]
    assert 'Flavor "tas" does not contain the requested level' in hits[0].message


@pytest.mark.parametrize("drop", ["kind: Topology", "kind: ResourceFlavor", "kind: ClusterQueue", "kind: LocalQueue"])
def test_level_is_not_checked_when_it_cannot_be_resolved(tmp_path, drop):
    docs = (FIXTURES / "KQ521" / "fail.yaml").read_text().split("\n---\n")
    text = "\n---\n".join(d for d in docs if drop not in d)
    assert by_code(lint_text(tmp_path, text), "KQ521") == []


def test_admitted_workload_is_not_checked(tmp_path):
    docs = (FIXTURES / "KQ521" / "fail.yaml").read_text().split("\n---\n")
    wl = next(d for d in docs if "kind: Workload" in d)
    admitted = wl + ("\nstatus:\n  conditions:\n  - type: QuotaReserved\n    status: \"True\"\n    reason: Admitted\n"
                     "    message: ok\n    lastTransitionTime: \"2026-01-01T00:00:00Z\"\n")
    text = "\n---\n".join(admitted if d is wl else d for d in docs if "kind: Job" not in d)
    assert by_code(lint_text(tmp_path, text), "KQ521") == []


def test_slice_constraints_annotation_levels_are_checked(tmp_path):
    text = _job("        kueue.x-k8s.io/podset-slice-required-topology-constraints: "
                "'[{\"topology\": \"cloud.com/zone\", \"size\": 2}]'")
    hits = by_code(lint_text(tmp_path, text), "KQ521")
    assert len(hits) == 1 and "'cloud.com/zone'" in hits[0].message


def test_node_missing_levels_only_for_matching_nodes(tmp_path):
    text = (FIXTURES / "KQ522" / "fail.yaml").read_text()
    [hit] = by_code(lint_text(tmp_path, text), "KQ522")
    assert "Node n1 " in hit.message and "cloud.com/rack" in hit.message and "cloud.com/block" not in hit.message
    n1 = _lines(text, "name: n1")
    assert (hit.line, hit.column) == (n1 + 1, 3)  # metadata.labels of n1


def test_nodes_without_tas_flavor_are_not_checked(tmp_path):
    text = (FIXTURES / "KQ522" / "fail.yaml").read_text().replace("  topologyName: default\n", "")
    assert by_code(lint_text(tmp_path, text), "KQ522") == []


TOPOLOGY = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: Topology
metadata: {{name: t}}
spec:
  levels:
{levels}
"""


@pytest.mark.parametrize(("levels", "code", "field"), [
    ("    []", "KQ004", "spec.levels"),
    ("\n".join(f"  - nodeLabel: cloud.com/l{i}" for i in range(17)), "KQ005", "spec.levels"),
    ("  - nodeLabel: \"bad label!\"", "KQ004", "spec.levels[0].nodeLabel"),
    ("  - nodeLabel: cloud.com/rack\n  - nodeLabel: cloud.com/rack", "KQ702", "spec.levels[1]"),
])
def test_topology_objects(tmp_path, levels, code, field):
    hits = by_code(lint_text(tmp_path, TOPOLOGY.format(levels=levels)), code)
    assert [h.field for h in hits] == [field]


@pytest.mark.parametrize("code", ["KQ521", "KQ522"])
def test_topology_rules_are_off_with_the_feature_gate(tmp_path, code):
    text = (FIXTURES / code / "fail.yaml").read_text()
    assert by_code(lint_text(tmp_path, text), code)
    assert by_code(lint_text(tmp_path, text, feature_gates={"TopologyAwareScheduling": False}), code) == []


GROUPED_AND_SLICED = ("        kueue.x-k8s.io/podset-group-name: g\n"
                      "        kueue.x-k8s.io/podset-required-topology: cloud.com/block\n"
                      "        kueue.x-k8s.io/podset-slice-required-topology: cloud.com/rack\n"
                      "        kueue.x-k8s.io/podset-slice-size: \"2\"")


def test_a_sliced_pod_set_group_is_refused_only_with_grouped_slicing_off(tmp_path):
    """TestValidateTASPodSetRequest_GroupingWithSlicing (kueue PR #15111): TASGroupedPodSetSlicing,
    on by default since v0.20, lets a pod-set group be sliced; off, the group name is forbidden."""
    text = _job(GROUPED_AND_SLICED)
    assert by_code(lint_text(tmp_path, text), "KQ606") == []
    hits = by_code(lint_text(tmp_path, text, feature_gates={"TASGroupedPodSetSlicing": False}), "KQ606")
    assert sorted((h.field, h.message) for h in hits) == [
        ("spec.template.metadata.annotations[kueue.x-k8s.io/podset-group-name]",
         f"job/team-a/job: may not be set when 'kueue.x-k8s.io/podset-{key}' is specified")
        for key in ("slice-required-topology", "slice-size")]


def test_a_group_with_slice_layers_is_refused_with_grouped_slicing_off(tmp_path):
    text = _job("        kueue.x-k8s.io/podset-group-name: g\n"
                "        kueue.x-k8s.io/podset-required-topology: cloud.com/block\n"
                "        kueue.x-k8s.io/podset-slice-required-topology-constraints: "
                "'[{\"topology\":\"cloud.com/rack\",\"size\":2}]'")
    assert by_code(lint_text(tmp_path, text), "KQ606") == []
    hits = by_code(lint_text(tmp_path, text, feature_gates={"TASGroupedPodSetSlicing": False}), "KQ606")
    assert [h.message for h in hits] == [
        "job/team-a/job: may not be set when 'kueue.x-k8s.io/podset-slice-required-topology-constraints' is specified"]
