"""Rules for AdmissionCheck, Topology and MultiKueue objects: the CEL rules of their CRDs and what
the built-in check controllers require of an AdmissionCheck (the schema covers field names, types,
lengths and list sizes)."""

from __future__ import annotations

from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.model.kueue_checks import PARAMETERS_KIND

HOSTNAME = "kubernetes.io/hostname"


@rule(
    code="KQ701", name="admission-check-bad-parameters", severity="error", layer="runtime",
    kinds=("AdmissionCheck",),
    summary="A built-in AdmissionCheck has no parameters or names the wrong kind",
    doc=RuleDoc(
        what="An AdmissionCheck handled by Kueue's provisioning controller (kueue.x-k8s.io/provisioning-request) "
             "must name a kueue.x-k8s.io ProvisioningRequestConfig in spec.parameters; one handled by MultiKueue "
             "(kueue.x-k8s.io/multikueue) a kueue.x-k8s.io MultiKueueConfig.",
        why="The controller marks the check Active=False (BadParametersRef / BadConfig: \"missing parameters "
            "reference\", \"wrong kind ..., expecting ...\"), and every ClusterQueue using it is inactive "
            "(AdmissionCheckInactive).",
        fix="Set spec.parameters to {apiGroup: kueue.x-k8s.io, kind: <the expected kind>, name: <its name>}.",
        bad="spec:\n  controllerName: kueue.x-k8s.io/multikueue\n  parameters:\n"
            "    {apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: cfg}\n",
        good="spec:\n  controllerName: kueue.x-k8s.io/multikueue\n  parameters:\n"
             "    {apiGroup: kueue.x-k8s.io, kind: MultiKueueConfig, name: cfg}\n",
        source="kueue pkg/util/admissioncheck/admissioncheck.go refValidForGK",
    ),
)
def check_parameters_shape(ac, ctx):
    expected = PARAMETERS_KIND.get(ac.controller_name or "")
    if expected is None:
        return
    ref = ac.parameters
    if ref is None:
        yield Finding(("spec",), f"missing parameters reference: the {ac.controller_name} controller needs a "
                      f"{expected} and marks AdmissionCheck {ac.name} inactive without one", type="Required",
                      hint=f"Add spec.parameters: {{apiGroup: kueue.x-k8s.io, kind: {expected}, name: ...}}.")
        return
    if not ref.is_kueue:
        yield Finding(("spec", "parameters", "apiGroup"), f"bad parameters reference: wrong group {ref.api_group!r}, "
                      "expecting 'kueue.x-k8s.io'; the AdmissionCheck stays inactive", type="Invalid")
    elif ref.kind != expected:
        yield Finding(("spec", "parameters", "kind"), f"bad parameters reference: wrong kind {ref.kind!r}, expecting "
                      f"{expected!r}; the AdmissionCheck stays inactive", type="Invalid")


@rule(
    code="KQ702", name="topology-levels", severity="error", layer="cel", kinds=("Topology",),
    summary="Topology levels repeat a node label, or kubernetes.io/hostname is not the lowest level",
    doc=RuleDoc(
        what="CEL rules on spec.levels: the levels must be unique, and kubernetes.io/hostname may only be the last "
             "(lowest) level. The schema checks 1 to 16 levels and the node-label format.",
        why="The API server rejects the Topology (\"must be unique\"; \"the kubernetes.io/hostname label can only "
            "be used at the lowest level of topology\"). Levels are also immutable once created (v1beta2: unless "
            "hostname is the lowest level before and after), so get them right first.",
        fix="List each node label once, from the widest domain (block, rack) down to kubernetes.io/hostname.",
        bad="levels:\n- nodeLabel: kubernetes.io/hostname\n- nodeLabel: cloud.com/rack\n",
        good="levels:\n- nodeLabel: cloud.com/rack\n- nodeLabel: kubernetes.io/hostname\n",
        source="kueue apis/kueue/v1beta2/topology_types.go TopologySpec.Levels (x-kubernetes-validations)",
    ),
)
def check_topology_levels(topo, ctx):
    seen: set[str] = set()
    for i, label in enumerate(topo.levels):
        if label is None:
            continue
        if label in seen:
            yield Finding(("spec", "levels", i), f"Invalid value: nodeLabel {label!r} repeats an earlier level: "
                          "must be unique", type="Invalid")
        seen.add(label)
        if label == HOSTNAME and i != len(topo.levels) - 1:
            yield Finding(("spec", "levels", i, "nodeLabel"), "the kubernetes.io/hostname label can only be used at "
                          "the lowest level of topology", type="Invalid",
                          hint="Move kubernetes.io/hostname to the last level.")


@rule(
    code="KQ703", name="multikueue-clusters-unique", severity="error", layer="cel", kinds=("MultiKueueConfig",),
    summary="MultiKueueConfig lists a cluster twice",
    doc=RuleDoc(
        what="CEL rule on a v1beta2 MultiKueueConfig's spec.clusters: the names must be unique (v1beta1 declares "
             "the list a set, which the schema checks).",
        why="The API server rejects the MultiKueueConfig (\"must be unique\").",
        fix="List each MultiKueueCluster once.",
        bad="spec:\n  clusters: [worker-1, worker-1]\n",
        good="spec:\n  clusters: [worker-1, worker-2]\n",
        source="kueue apis/kueue/v1beta2/multikueue_types.go MultiKueueConfigSpec.Clusters (x-kubernetes-validations)",
    ),
)
def check_multikueue_clusters_unique(cfg, ctx):
    if cfg.version == "v1beta1":
        return
    seen: set[str] = set()
    for i, name in enumerate(cfg.clusters):
        if name in seen:
            yield Finding(("spec", "clusters", i), f"Invalid value: cluster {name!r} is listed twice: must be unique",
                          type="Invalid")
        seen.add(name)


@rule(
    code="KQ704", name="multikueue-cluster-source", severity="error", layer="cel", kinds=("MultiKueueCluster",),
    summary="MultiKueueCluster sets neither or both of kubeConfig and clusterProfileRef",
    doc=RuleDoc(
        what="CEL rule on a v1beta2 MultiKueueCluster's spec.clusterSource: exactly one of kubeConfig and "
             "clusterProfileRef must be set.",
        why="The API server rejects the MultiKueueCluster (\"exactly one of the fields in [kubeConfig "
            "clusterProfileRef] must be set\").",
        fix="Keep one way of reaching the worker cluster: a kubeconfig Secret (or path), or a ClusterProfile.",
        bad="spec:\n  clusterSource: {}\n",
        good="spec:\n  clusterSource:\n    kubeConfig: {location: worker1-secret, locationType: Secret}\n",
        source="kueue apis/kueue/v1beta2/multikueue_types.go ClusterSource (x-kubernetes-validations)",
    ),
)
def check_multikueue_cluster_source(mkc, ctx):
    if mkc.version == "v1beta1":
        return
    if mkc.cluster_sources is None:
        return  # the schema reports a missing or mistyped clusterSource
    if len(mkc.cluster_sources) != 1:
        yield Finding(("spec", "clusterSource"), "Invalid value: exactly one of the fields in [kubeConfig "
                      "clusterProfileRef] must be set", type="Invalid")
