"""Every Kueue kind is checked: the admission-check side kinds get their schema (a bogus field fails),
the Configuration accepts its full upstream field set, and Kueue's alpha kinds are recognised once per run
rather than called unknown."""

from __future__ import annotations

import textwrap

import pytest

from quotactl.lint.context import LintOptions
from quotactl.lint.runner import lint_paths
from quotactl.load.objects import load

KINDS = {
    "AdmissionCheck": "spec:\n  controllerName: kueue.x-k8s.io/provisioning-request\n"
                      "  parameters: {apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: p}\n",
    "Topology": "spec:\n  levels:\n  - nodeLabel: kubernetes.io/hostname\n",
    "MultiKueueConfig": "spec:\n  clusters: [worker-1]\n",
    "ProvisioningRequestConfig": "spec:\n  provisioningClassName: check-capacity.autoscaling.x-k8s.io\n",
}
MKC = {"v1beta1": "spec:\n  kubeConfig: {location: s, locationType: Secret}\n",
       "v1beta2": "spec:\n  clusterSource:\n    kubeConfig: {location: s, locationType: Secret}\n"}


def _lint(tmp_path, text: str, **options):
    path = tmp_path / "in.yaml"
    path.write_text(textwrap.dedent(text))
    return lint_paths([str(path)], LintOptions(**options)).diagnostics


def _cases():
    for kind, spec in KINDS.items():
        for version in ("v1beta1", "v1beta2"):
            yield kind, version, spec
    for version, spec in MKC.items():
        yield "MultiKueueCluster", version, spec
    yield "Topology", "v1alpha1", KINDS["Topology"]


@pytest.mark.parametrize(("kind", "version", "spec"), list(_cases()))
def test_valid_object_is_clean_and_a_bogus_field_is_reported(tmp_path, kind, version, spec):
    head = f"apiVersion: kueue.x-k8s.io/{version}\nkind: {kind}\nmetadata: {{name: x}}\n"
    # KQ011 / KQ013: v1alpha1 / v1beta1 are no longer served at the default target (tested elsewhere)
    clean = [d for d in _lint(tmp_path, head + spec, cross_refs=False) if d.severity.value != "info"
             and d.code not in ("KQ011", "KQ013")]
    assert not clean, [(d.code, d.message) for d in clean]
    bogus = _lint(tmp_path, head + spec + "  bogusField: 1\n", cross_refs=False)
    hits = [d for d in bogus if d.code == "KQ007"]
    assert hits and hits[0].field == "spec.bogusField" and hits[0].line == spec.count("\n") + 4


def test_v1alpha1_topology_warns_it_is_no_longer_served(tmp_path):
    diags = _lint(tmp_path, "apiVersion: kueue.x-k8s.io/v1alpha1\nkind: Topology\nmetadata: {name: x}\n"
                  + KINDS["Topology"])
    assert [d.message for d in diags if d.code == "KQ011"] == [
        "kueue.x-k8s.io/v1alpha1 Topology is served only by Kueue v0.9-v0.13 (checked with those rules); use v1beta2"]


V018_CONFIGURATION = """\
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
health:
  healthProbeBindAddress: :8081
metrics:
  bindAddress: :8443
  enableClusterQueueResources: true
webhook:
  port: 9443
leaderElection:
  leaderElect: true
  resourceName: c1f6bfd2.kueue.x-k8s.io
controller:
  groupKindConcurrency:
    Job.batch: 5
clientConnection:
  qps: 50
  burst: 100
visibilityServer:
  bindPort: 8082
integrations:
  frameworks: ["batch/job", "jobset.x-k8s.io/jobset"]
multiKueue:
  gcInterval: 1m
  origin: multikueue
resources:
  deviceClassMappings:
  - name: example.com/gpu-memory
    deviceClassNames: [gpu.example.com]
    sources:
    - counter: {name: memory, driver: gpu.example.com, deviceSelector: {cel: {expression: "true"}}}
objectRetentionPolicies:
  workloads:
    afterFinished: 1h
"""


def test_a_valid_v018_configuration_lints_clean(tmp_path):
    diags = _lint(tmp_path, V018_CONFIGURATION)
    assert not [d for d in diags if d.severity.value != "info"], [(d.code, d.message) for d in diags]


@pytest.mark.parametrize("section", ["health", "metrics", "leaderElection", "visibilityServer", "clientConnection"])
def test_configuration_sections_are_closed(tmp_path, section):
    diags = _lint(tmp_path, "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n"
                  f"{section}:\n  notAField: 1\n")
    assert [d.field for d in diags if d.code == "KQ007"] == [f"{section}.notAField"]


def test_alpha_kinds_are_recognised_once_per_kind(tmp_path):
    docs = "".join(f"---\napiVersion: kueue.x-k8s.io/v1alpha1\nkind: {k}\nmetadata: {{name: {n}}}\n"
                   for k, n in (("PreemptionConfig", "a"), ("PreemptionConfig", "b"), ("CapacityProvider", "c")))
    (tmp_path / "alpha.yaml").write_text(docs)
    result = load([str(tmp_path / "alpha.yaml")])
    notes = [d for d in result.diagnostics if d.code == "IN003"]
    assert [(d.line, d.severity.value) for d in notes] == [(2, "info"), (10, "info")]
    assert "checks against its CRD but does not model" in notes[0].message  # PreemptionConfig
    assert "recognises but does not check yet" in notes[1].message  # CapacityProvider
    assert all("unknown" not in d.message for d in notes)
    assert not result.objects


RF_NAMING_MISSING_TOPOLOGY = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: tas}
spec:
  nodeLabels: {pool: tas}
  topologyName: default
"""


@pytest.mark.parametrize(("cross_refs", "expected"), [(None, ["KQ500"]), (True, ["KQ518"]), (False, [])])
def test_check_side_references_follow_the_cross_refs_policy(tmp_path, cross_refs, expected):
    diags = _lint(tmp_path, RF_NAMING_MISSING_TOPOLOGY, cross_refs=cross_refs)
    assert [d.code for d in diags if d.code in ("KQ500", "KQ518")] == expected
