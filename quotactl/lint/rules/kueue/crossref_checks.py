"""Cross-object references along the admission-check side: a ClusterQueue's AdmissionChecks, a
ResourceFlavor's Topology, an AdmissionCheck's parameters object, a MultiKueueConfig's clusters.

Same partial-input policy as the other KQ5xx reference rules (``crossref_refs``): a dangling name is
reported when the input holds at least one object of the target kind, or with --cross-refs."""

from __future__ import annotations

from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.crossref_helpers import dangling, did_you_mean


def _hint(name: str, known, create: str) -> str:
    return did_you_mean(name, known).strip() or create


@rule(
    code="KQ517", name="admission-check-not-found", severity="error", layer="reference", scope="cluster",
    summary="ClusterQueue names an AdmissionCheck that does not exist",
    doc=RuleDoc(
        what="Every name in spec.admissionChecksStrategy.admissionChecks[] (v1beta1 also spec.admissionChecks[]) "
             "must be an AdmissionCheck of the input (checked when the input has AdmissionChecks, or with "
             "--cross-refs).",
        why="Kueue accepts the ClusterQueue but keeps it inactive (Active=False, reason AdmissionCheckNotFound): it "
            "admits nothing until the AdmissionCheck is created.",
        fix="Create the AdmissionCheck, or correct the name (the message suggests close matches).",
        bad="kind: AdmissionCheck\nmetadata: {name: prov}\n---\nkind: ClusterQueue\n...\n"
            "  admissionChecksStrategy:\n    admissionChecks:\n    - name: provisioning\n",
        good="kind: ClusterQueue\n...\n  admissionChecksStrategy:\n    admissionChecks:\n    - name: prov\n",
        source="kueue pkg/cache/scheduler/clusterqueue.go inactiveReason (AdmissionCheckNotFound)",
    ),
)
def check_admission_check_refs(ctx):
    known = ctx.cluster.admission_checks
    for r in dangling(ctx, "AdmissionCheck"):
        yield Finding(
            r.path,
            f"AdmissionCheck {r.name!r} does not exist: Kueue keeps ClusterQueue {r.subject.name} inactive "
            "(Active=False, reason AdmissionCheckNotFound) and admits nothing through it",
            type="NotFound", subject=r.subject, hint=_hint(r.name, known, "Create the AdmissionCheck or fix the name."),
        )


@rule(
    code="KQ518", name="topology-not-found", severity="error", layer="reference", scope="cluster",
    summary="ResourceFlavor names a Topology that does not exist",
    doc=RuleDoc(
        what="A ResourceFlavor's spec.topologyName must name a Topology of the input (checked when the input has "
             "Topologies, or with --cross-refs).",
        why="Every ClusterQueue using the flavor is inactive (Active=False, reason TopologyNotFound) until the "
            "Topology exists: nothing is admitted through it.",
        fix="Create the Topology, or correct the name.",
        bad="kind: Topology\nmetadata: {name: default}\n---\nkind: ResourceFlavor\nspec:\n  topologyName: defualt\n",
        good="kind: ResourceFlavor\nspec:\n  nodeLabels: {cloud.com/pool: tas}\n  topologyName: default\n",
        source="kueue pkg/cache/scheduler/clusterqueue.go inactiveReason (TopologyNotFound)",
    ),
)
def check_topology_refs(ctx):
    known = ctx.cluster.topologies
    for r in dangling(ctx, "Topology"):
        yield Finding(
            r.path,
            f"Topology {r.name!r} does not exist: every ClusterQueue using flavor {r.subject.name} is inactive "
            "(Active=False, reason TopologyNotFound)",
            type="NotFound", subject=r.subject, hint=_hint(r.name, known, "Create the Topology or fix the name."),
        )


@rule(
    code="KQ519", name="admission-check-parameters-not-found", severity="error", layer="reference",
    scope="cluster",
    summary="AdmissionCheck parameters name a ProvisioningRequestConfig or MultiKueueConfig that does not exist",
    doc=RuleDoc(
        what="spec.parameters of an AdmissionCheck naming a kueue.x-k8s.io ProvisioningRequestConfig or "
             "MultiKueueConfig must resolve to such an object of the input (checked when the input has that kind, "
             "or with --cross-refs).",
        why="The check's controller cannot read its configuration: it marks the AdmissionCheck Active=False "
            "(BadParametersRef for provisioning, BadConfig for MultiKueue), and every ClusterQueue using it is "
            "inactive (AdmissionCheckInactive).",
        fix="Create the parameters object, or correct spec.parameters.name.",
        bad="spec:\n  controllerName: kueue.x-k8s.io/provisioning-request\n  parameters:\n"
            "    {apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: prov-confg}\n",
        good="spec:\n  controllerName: kueue.x-k8s.io/provisioning-request\n  parameters:\n"
             "    {apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: prov-config}\n",
        source=("kueue pkg/controller/admissionchecks/provisioning/admissioncheck_reconciler.go Reconcile "
                "(BadParametersRef); pkg/controller/admissionchecks/multikueue/admissioncheck.go (BadConfig)"),
    ),
)
def check_parameters_refs(ctx):
    cluster = ctx.cluster
    for kind, known in (("ProvisioningRequestConfig", cluster.provisioning_request_configs),
                        ("MultiKueueConfig", cluster.multikueue_configs)):
        for r in dangling(ctx, kind):
            yield Finding(
                r.path,
                f"{kind} {r.name!r} does not exist: AdmissionCheck {r.subject.name} becomes inactive and every "
                "ClusterQueue using it admits nothing (AdmissionCheckInactive)",
                type="NotFound", subject=r.subject, hint=_hint(r.name, known, f"Create the {kind} or fix the name."),
            )


@rule(
    code="KQ520", name="multikueue-cluster-not-found", severity="warning", layer="reference", scope="cluster",
    summary="MultiKueueConfig lists a MultiKueueCluster that does not exist",
    doc=RuleDoc(
        what="Every name in a MultiKueueConfig's spec.clusters must be a MultiKueueCluster of the input (checked "
             "when the input has MultiKueueClusters, or with --cross-refs).",
        why="Kueue dispatches only to the clusters it can reach: a missing one is skipped, the AdmissionCheck "
            "reports SomeActiveClusters, and with none usable it goes inactive (NoUsableClusters).",
        fix="Create the MultiKueueCluster, or correct the name.",
        bad="kind: MultiKueueConfig\nspec:\n  clusters: [worker-1, wroker-2]\n",
        good="kind: MultiKueueConfig\nspec:\n  clusters: [worker-1, worker-2]\n",
        source="kueue pkg/controller/admissionchecks/multikueue/admissioncheck.go Reconcile (SomeActiveClusters, "
               "NoUsableClusters)",
    ),
)
def check_multikueue_cluster_refs(ctx):
    known = ctx.cluster.multikueue_clusters
    for r in dangling(ctx, "MultiKueueCluster"):
        yield Finding(
            r.path,
            f"MultiKueueCluster {r.name!r} does not exist: MultiKueueConfig {r.subject.name} cannot dispatch to it",
            type="NotFound", subject=r.subject,
            hint=_hint(r.name, known, "Create the MultiKueueCluster or fix the name."),
        )
