"""Typed Kueue objects, with v1alpha1 / v1beta1 / v1beta2 normalised into one model.

Every engine (lint, explain, preempt, schedule) works on these classes.  They are built
leniently: a field of the wrong type becomes ``None`` (schema validation reports it), so a
broken object still yields a model.  Sub-structures keep their ``path`` inside the object, so a
finding about them can point at the exact source line through ``source.ref``.

Defaults are applied here exactly as the CRDs default them (kueue
``apis/kueue/v1beta2/*_types.go`` kubebuilder defaults).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import partial

from quotactl.load.objects import KubeObject
from quotactl.model.cached import cached_attribute
from quotactl.model.coerce import (
    as_bool,
    as_dict,
    as_int,
    as_list,
    as_quantity,
    as_str,
    quantity_map,
    str_map,
)
from quotactl.model.dra import (
    ClaimSource,
    DeviceClaimSpec,
    DeviceClassMapping,
    DraCharge,
    build_device_claim_spec,
    claim_sources,
    class_to_resource,
    device_class_mappings,
    resolve_claims,
)
from quotactl.model.gc_pause import fewer_gc_pauses
from quotactl.model.kueue_base import KueueObject
from quotactl.model.kueue_checks import (
    CHECK_BUILDERS,
    AdmissionCheck,
    MultiKueueCluster,
    MultiKueueConfig,
    ProvisioningRequestConfig,
    Topology,
)
from quotactl.model.kueue_tas import (
    TAS_BUILDERS,
    Node,
    Pod,
    TopologyAssignment,
    TopologyRequest,
    build_topology_assignment,
    build_topology_request,
)
from quotactl.model.podspec import (
    PodSpecInfo,
    ResourceHolder,
    Taint,
    Toleration,
    has_resource_claims,
    parse_taints,
    parse_tolerations,
    pod_spec_info,
    resource_holders,
)
from quotactl.model.quantity import Quantity

Path = tuple

# v1beta1 spellings that convert to a v1beta2 value.
_FUNGIBILITY_ALIASES = {"Borrow": "MayStopSearch", "Preempt": "MayStopSearch"}


# --------------------------------------------------------------------------- quotas ----------

@dataclass(frozen=True)
class ResourceQuota:
    """One resource of a flavor in a ClusterQueue or Cohort: nominal quota, borrowing and lending limits."""

    name: str | None
    nominal: Quantity | None
    borrowing_limit: Quantity | None
    lending_limit: Quantity | None
    path: Path


@dataclass(frozen=True)
class FlavorQuotas:
    """One flavor of a resource group and the quotas of its resources."""

    name: str | None
    resources: tuple[ResourceQuota, ...]
    path: Path


@dataclass(frozen=True)
class ResourceGroup:
    """A resource group: the resources it covers and its flavors, in order."""

    covered_resources: tuple[str, ...]
    flavors: tuple[FlavorQuotas, ...]
    path: Path
    covered_raw: tuple = ()  # the raw entries, for rules that check their type


@dataclass(frozen=True)
class FairSharing:
    """spec.fairSharing: the weight in fair sharing."""

    weight: Quantity | None  # None when the given weight was not a quantity
    path: Path


@dataclass(frozen=True)
class Preemption:
    """A ClusterQueue's spec.preemption policies."""

    reclaim_within_cohort: str = "Never"
    within_cluster_queue: str = "Never"
    borrow_within_cohort_policy: str = "Never"
    max_priority_threshold: int | None = None


@dataclass(frozen=True)
class FlavorFungibility:
    """A ClusterQueue's spec.flavorFungibility: when to try the next flavor."""

    when_can_borrow: str = "MayStopSearch"
    when_can_preempt: str = "TryNextFlavor"
    preference: str | None = None


@dataclass(frozen=True)
class LabelSelectorRequirement:
    """One matchExpressions entry of a label selector."""

    key: str | None
    operator: str | None
    values: tuple[str, ...] | None
    path: Path


@dataclass(frozen=True)
class LabelSelector:
    """A Kubernetes label selector (matchLabels and matchExpressions)."""

    match_labels: dict[str, str]
    match_expressions: tuple[LabelSelectorRequirement, ...]
    path: Path

    def matches(self, labels: dict[str, str]) -> bool:
        """metav1.LabelSelector semantics; ``{}`` matches everything."""
        for k, v in self.match_labels.items():
            if labels.get(k) != v:
                return False
        for r in self.match_expressions:
            present = r.key in labels
            vals = r.values or ()
            if r.operator == "In" and not (present and labels[r.key] in vals):
                return False
            if r.operator == "NotIn" and present and labels[r.key] in vals:
                return False
            if r.operator == "Exists" and not present:
                return False
            if r.operator == "DoesNotExist" and present:
                return False
            if r.operator not in ("In", "NotIn", "Exists", "DoesNotExist"):
                return False
        return True


@dataclass(frozen=True)
class AdmissionCheckRule:
    """An admission check of a ClusterQueue and the flavors it applies to."""

    name: str | None
    on_flavors: tuple[str, ...]
    path: Path


# ---------------------------------------------------------------------------- objects --------

@dataclass(frozen=True, slots=True)  # one per object: a snapshot may hold 100,000s
class ResourceFlavor(KueueObject):
    """A ResourceFlavor: node labels, taints and tolerations of the nodes it stands for."""

    name: str | None = None
    node_labels: dict[str, str] = field(default_factory=dict)
    node_taints: tuple[Taint, ...] = ()
    tolerations: tuple[Toleration, ...] = ()
    topology_name: str | None = None


@dataclass(frozen=True, slots=True)
class ClusterQueue(KueueObject):
    """A ClusterQueue: quota, cohort, queueing strategy and preemption policies."""

    name: str | None = None
    cohort: str | None = None
    cohort_path: Path = ("spec", "cohortName")
    resource_groups: tuple[ResourceGroup, ...] = ()
    queueing_strategy: str = "BestEffortFIFO"
    namespace_selector: LabelSelector | None = None  # None: no namespace may use this CQ
    flavor_fungibility: FlavorFungibility = FlavorFungibility()
    preemption: Preemption = Preemption()
    admission_checks: tuple[AdmissionCheckRule, ...] = ()
    stop_policy: str = "None"
    fair_sharing: FairSharing | None = None
    admission_mode: str | None = None
    concurrent_admission_policy: dict | None = None
    # status.effectiveQuotas: the quota Dynamic Quota Orchestration set (None: not set)
    effective_quotas: tuple[ResourceGroup, ...] | None = None

    @property
    def flavor_names(self) -> list[str]:
        return [f.name for rg in self.resource_groups for f in rg.flavors if f.name]

    def quota(self, flavor: str, resource: str) -> ResourceQuota | None:
        for rg in self.resource_groups:
            for f in rg.flavors:
                if f.name == flavor:
                    for r in f.resources:
                        if r.name == resource:
                            return r
        return None


@dataclass(frozen=True, slots=True)
class Cohort(KueueObject):
    """A Cohort: its parent, and the quota it holds itself (hierarchical cohorts)."""

    name: str | None = None
    parent: str | None = None
    parent_path: Path = ("spec", "parentName")
    resource_groups: tuple[ResourceGroup, ...] = ()
    fair_sharing: FairSharing | None = None
    effective_quotas: tuple[ResourceGroup, ...] | None = None  # status.effectiveQuotas, as a ClusterQueue's


@dataclass(frozen=True, slots=True)
class LocalQueue(KueueObject):
    """A LocalQueue: the namespace's entry to a ClusterQueue."""

    name: str | None = None
    namespace: str = "default"
    cluster_queue: str | None = None
    stop_policy: str = "None"
    fair_sharing: FairSharing | None = None
    # status.fairSharing.admissionFairSharingStatus: the decayed usage Kueue persisted (admission
    # fair sharing seeds its ledger from it) and when it was written
    afs_consumed: tuple[tuple[str, Quantity], ...] = ()  # sorted by resource
    afs_last_update: str | None = None


@dataclass(frozen=True, slots=True)
class WorkloadPriorityClass(KueueObject):
    """A kueue.x-k8s.io WorkloadPriorityClass."""

    name: str | None = None
    value: int | None = None
    description: str | None = None


@dataclass(frozen=True, slots=True)
class PriorityClass(KueueObject):
    """A scheduling.k8s.io PriorityClass."""

    name: str | None = None
    value: int | None = None
    global_default: bool = False
    preemption_policy: str = "PreemptLowerPriority"


@dataclass(frozen=True, slots=True)
class Namespace(KueueObject):
    """A Namespace and its labels (ClusterQueue namespace selectors read them)."""

    name: str | None = None
    labels: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PriorityClassRef:
    """The priority class a Workload names: spec.priorityClassRef (v1beta2), or spec.priorityClassName read as one."""

    group: str | None
    kind: str | None
    name: str | None

    @property
    def is_workload_priority_class(self) -> bool:
        return self.group == "kueue.x-k8s.io" and self.kind == "WorkloadPriorityClass"

    @property
    def is_pod_priority_class(self) -> bool:
        return self.group == "scheduling.k8s.io" and self.kind == "PriorityClass"


@dataclass(frozen=True)
class PodSet:
    """One pod set of a Workload: count, minimum count and the pod's requests."""

    name: str
    count: int
    min_count: int | None
    pod: PodSpecInfo
    path: Path
    # requests/limits as written, per container and pod-level (for Kueue's resource validation)
    resource_holders: tuple[ResourceHolder, ...] = ()
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    # topology-aware scheduling: spec.podSets[].topologyRequest (or the template's annotations)
    topology_request: TopologyRequest | None = None
    # Dynamic Resource Allocation: the template's spec.resourceClaims
    claims: tuple[ClaimSource, ...] = ()


@dataclass(frozen=True)
class PodSetAssignment:
    """status.admission.podSetAssignments[]: the flavors and usage of one admitted pod set."""

    name: str
    flavors: dict[str, str]  # resource -> flavor
    resource_usage: dict[str, Quantity]  # total for the pod set
    count: int | None
    path: Path
    topology_assignment: TopologyAssignment | None = None  # topology-aware scheduling


@dataclass(frozen=True)
class Admission:
    """status.admission of a Workload: its ClusterQueue and pod set assignments, and the field
    manager that owns it (``metadata.managedFields``: (manager, operation), None when the input
    does not say; ``kubectl get`` shows them only with ``--show-managed-fields``)."""

    cluster_queue: str | None
    pod_set_assignments: tuple[PodSetAssignment, ...]
    owner: tuple[str, str] | None = None


@dataclass(frozen=True)
class AdmissionCheckState:
    """One entry of ``status.admissionChecks``."""

    name: str | None
    state: str | None
    message: str | None = None


@dataclass(frozen=True)
class Condition:
    """One status condition."""

    type: str
    status: str | None
    reason: str | None
    message: str | None
    last_transition_time: str | None


@dataclass(frozen=True)
class Workload(KueueObject):
    """A Workload: its queue, priority, pod sets and status."""

    name: str | None = None
    namespace: str = "default"
    uid: str | None = None
    creation_timestamp: str | None = None
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    queue_name: str | None = None
    priority: int | None = None
    priority_class_ref: PriorityClassRef | None = None
    priority_class_ref_path: Path = ("spec", "priorityClassRef")
    active: bool = True
    pod_sets: tuple[PodSet, ...] = ()
    admission: Admission | None = None
    conditions: dict[str, Condition] = field(default_factory=dict)
    reclaimable_pods: dict[str, int] = field(default_factory=dict)
    maximum_execution_time_seconds: int | None = None
    admission_checks: tuple[AdmissionCheckState, ...] = ()
    owner_kind: str | None = None  # the kind its ownerReferences name (the controller first): Job, JobSet, ...
    # its pod sets' DRA claims resolved against the input (build_cluster); None: it has none
    dra: DraCharge | None = None

    @cached_attribute
    def key(self) -> str:
        # cached: the scheduler reads it hundreds of thousands of times (the fields never change)
        return f"{self.namespace}/{self.name}"

    def condition_true(self, ctype: str) -> bool:
        c = self.conditions.get(ctype)
        return c is not None and c.status == "True"

    @property
    def has_quota_reservation(self) -> bool:
        """Counts against quota: QuotaReserved=True with an admission, not finished, active."""
        return (
            self.admission is not None
            and self.condition_true("QuotaReserved")
            and not self.condition_true("Finished")
            and self.active
        )

    @property
    def is_finished(self) -> bool:
        return self.condition_true("Finished")

    @property
    def is_pending(self) -> bool:
        """Kueue's ``workload.Status`` is Pending: no admission and not finished.  Inactive
        workloads too, so not the same as waiting in a queue: that is ``is_queueable``."""
        return self.admission is None and not self.is_finished

    @property
    def is_queueable(self) -> bool:
        """Kueue's ``workload.IsAdmissible`` (``pkg/workload/workload.go``): not finished, active
        and holding no quota reservation.  The workload controller hands such a workload to the
        queue manager (``pkg/controller/core/workload_controller.go`` Create / Update:
        ``queues.AddOrUpdateWorkload``), which keeps it in the heap of its LocalQueue's
        ClusterQueue; every other workload is out of the queues.  The one copy of this rule: the
        scheduler, simulate, ``explain``, ``shares`` and the queue order read it."""
        return not (self.has_quota_reservation or self.is_finished or not self.active)


@dataclass(frozen=True)
class ResourceTransformation:
    """One ``resources.transformations`` entry: per unit of ``input``, add ``outputs``; the
    input itself is kept (``Retain``, the default) or dropped (any other strategy: Kueue keeps
    the input only when the strategy is unset or Retain)."""

    input: str | None
    strategy: str  # "Retain" when unset
    outputs: dict[str, Quantity]

    @property
    def retains_input(self) -> bool:
        return self.strategy == "Retain"


@dataclass(frozen=True)
class WaitForPodsReady:
    """``waitForPodsReady`` as written, unset fields None (Kueue's defaults are applied where it is
    used: ``simulate/lifecycle.py``); durations stay text, read with the simulation's clock."""

    timeout: str | None = None
    block_admission: bool = False
    recovery_timeout: str | None = None
    backoff_limit_count: int | None = None
    backoff_base_seconds: int | None = None
    backoff_max_seconds: int | None = None
    unscheduled_timeout: str | None = None  # v0.20 (gate WaitForPodsReadyUnscheduledTimeout)


@dataclass(frozen=True)
class KueueConfiguration(KueueObject):
    """The Kueue manager's Configuration: the parts the scheduler's decisions depend on."""

    fair_sharing_enabled: bool = False
    preemption_strategies: tuple[str, ...] = ()
    feature_gates: dict[str, bool] = field(default_factory=dict)
    exclude_resource_prefixes: tuple[str, ...] = ()
    quota_check_strategy: str = "BlockUndeclared"
    transformations: tuple[ResourceTransformation, ...] = ()
    # waitForPodsReady.requeuingStrategy.timestamp when it is Eviction or Creation, else None
    requeuing_timestamp: str | None = None
    # waitForPodsReady is on: v1beta1 ``enable: true``; v1beta2 the section is present (Kueue's
    # Convert_v1beta1_Configuration_To_v1beta2_Configuration drops it unless enabled); the gate
    # DisableWaitForPodsReady can still turn it off
    wait_for_pods_ready: bool = False
    pods_ready: WaitForPodsReady | None = None  # the section's fields, when it is on
    admission_fair_sharing: bool = False  # the admissionFairSharing section is present
    # its fields as written (kueue/afs.py parses and checks them): usageHalfLifeTime,
    # usageSamplingInterval, resourceWeights (resource -> value)
    afs_half_life: object = None
    afs_sampling_interval: object = None
    afs_resource_weights: tuple[tuple[str, object], ...] = ()
    device_class_mappings: tuple[DeviceClassMapping, ...] = ()  # resources.deviceClassMappings (DRA)
    # What the job integrations read (jobs/context.py): manageJobsWithoutQueueName is true;
    # managedJobsNamespaceSelector (None: Kueue's default, every namespace but its own and kube-system)
    manage_jobs_without_queue_name: bool = False
    managed_jobs_namespace_selector: LabelSelector | None = None


# --------------------------------------------------------------------------- builders --------

def _resource_groups(raw_groups, base: Path) -> tuple[ResourceGroup, ...]:
    groups = []
    for i, rg in enumerate(as_list(raw_groups)):
        rg = as_dict(rg)
        path = base + (i,)
        covered_raw = tuple(as_list(rg.get("coveredResources")))
        covered = tuple(c if isinstance(c, str) else str(c) for c in covered_raw)
        flavors = []
        for j, fq in enumerate(as_list(rg.get("flavors"))):
            fq = as_dict(fq)
            fpath = path + ("flavors", j)
            resources = []
            for k, rq in enumerate(as_list(fq.get("resources"))):
                rq = as_dict(rq)
                resources.append(
                    ResourceQuota(
                        name=as_str(rq.get("name")),
                        nominal=as_quantity(rq.get("nominalQuota")),
                        borrowing_limit=as_quantity(rq.get("borrowingLimit")),
                        lending_limit=as_quantity(rq.get("lendingLimit")),
                        path=fpath + ("resources", k),
                    )
                )
            flavors.append(FlavorQuotas(as_str(fq.get("name")), tuple(resources), fpath))
        groups.append(ResourceGroup(covered, tuple(flavors), path, covered_raw))
    return tuple(groups)


def _fair_sharing(raw, path: Path) -> FairSharing | None:
    if not isinstance(raw, dict):
        return None
    weight = raw.get("weight", 1)
    return FairSharing(as_quantity(weight), path)


def _label_selector(raw, path: Path) -> LabelSelector | None:
    if not isinstance(raw, dict):
        return None
    exprs = []
    for i, e in enumerate(as_list(raw.get("matchExpressions"))):
        e = as_dict(e)
        vals = e.get("values")
        exprs.append(
            LabelSelectorRequirement(
                as_str(e.get("key")), as_str(e.get("operator")),
                tuple(str(v) for v in vals) if isinstance(vals, list) else None,
                path + ("matchExpressions", i),
            )
        )
    return LabelSelector(str_map(raw.get("matchLabels")), tuple(exprs), path)


def _enum(value, default: str) -> str:
    return value if isinstance(value, str) else default


def _fungibility(value, default: str) -> str:
    value = _enum(value, default)
    return _FUNGIBILITY_ALIASES.get(value, value)


def build_resource_flavor(obj: KubeObject) -> ResourceFlavor:
    spec = as_dict(obj.data.get("spec"))
    return ResourceFlavor(
        source=obj,
        name=obj.name,
        node_labels=str_map(spec.get("nodeLabels")),
        node_taints=parse_taints(spec.get("nodeTaints")),
        tolerations=parse_tolerations(spec.get("tolerations")),
        topology_name=as_str(spec.get("topologyName")),
    )


def build_cluster_queue(obj: KubeObject) -> ClusterQueue:
    spec = as_dict(obj.data.get("spec"))
    cohort_field = "cohort" if obj.version == "v1beta1" else "cohortName"
    cohort = as_str(spec.get(cohort_field))
    pre = as_dict(spec.get("preemption"))
    bwc = as_dict(pre.get("borrowWithinCohort"))
    ff = as_dict(spec.get("flavorFungibility"))
    checks = []
    strategy = as_dict(spec.get("admissionChecksStrategy"))
    for i, ac in enumerate(as_list(strategy.get("admissionChecks"))):
        ac = as_dict(ac)
        checks.append(
            AdmissionCheckRule(
                as_str(ac.get("name")), tuple(str(f) for f in as_list(ac.get("onFlavors"))),
                ("spec", "admissionChecksStrategy", "admissionChecks", i),
            )
        )
    if obj.version == "v1beta1" and isinstance(spec.get("admissionChecks"), list):
        # v1beta1 plain list: converted to strategy rules without flavors; it wins over a strategy.
        checks = [
            AdmissionCheckRule(as_str(n), (), ("spec", "admissionChecks", i))
            for i, n in enumerate(spec["admissionChecks"])
        ]
    return ClusterQueue(
        source=obj,
        name=obj.name,
        cohort=cohort or None,
        cohort_path=("spec", cohort_field),
        resource_groups=_resource_groups(spec.get("resourceGroups"), ("spec", "resourceGroups")),
        queueing_strategy=_enum(spec.get("queueingStrategy"), "BestEffortFIFO"),
        namespace_selector=_label_selector(spec.get("namespaceSelector"), ("spec", "namespaceSelector")),
        flavor_fungibility=FlavorFungibility(
            _fungibility(ff.get("whenCanBorrow"), "MayStopSearch"),
            _fungibility(ff.get("whenCanPreempt"), "TryNextFlavor"),
            as_str(ff.get("preference")),
        ),
        preemption=Preemption(
            _enum(pre.get("reclaimWithinCohort"), "Never"),
            _enum(pre.get("withinClusterQueue"), "Never"),
            _enum(bwc.get("policy"), "Never"),
            as_int(bwc.get("maxPriorityThreshold")),
        ),
        admission_checks=tuple(checks),
        stop_policy=_enum(spec.get("stopPolicy"), "None"),
        fair_sharing=_fair_sharing(spec.get("fairSharing"), ("spec", "fairSharing")),
        admission_mode=as_str(as_dict(spec.get("admissionScope")).get("admissionMode")),
        concurrent_admission_policy=spec.get("concurrentAdmissionPolicy")
        if isinstance(spec.get("concurrentAdmissionPolicy"), dict) else None,
        effective_quotas=_effective_quotas(obj),
    )


def _effective_quotas(obj: KubeObject) -> tuple[ResourceGroup, ...] | None:
    """``status.effectiveQuotas`` (Kueue v0.20 KEP-12382): a complete list of resource groups, in
    the shape of ``spec.resourceGroups``; None when absent or empty."""
    raw = as_dict(obj.data.get("status")).get("effectiveQuotas")
    if not isinstance(raw, list) or not raw:
        return None
    return _resource_groups(raw, ("status", "effectiveQuotas"))


def build_cohort(obj: KubeObject) -> Cohort:
    spec = as_dict(obj.data.get("spec"))
    parent_field = "parent" if obj.version == "v1alpha1" else "parentName"
    return Cohort(
        source=obj,
        name=obj.name,
        parent=as_str(spec.get(parent_field)) or None,
        parent_path=("spec", parent_field),
        resource_groups=_resource_groups(spec.get("resourceGroups"), ("spec", "resourceGroups")),
        fair_sharing=_fair_sharing(spec.get("fairSharing"), ("spec", "fairSharing")),
        effective_quotas=_effective_quotas(obj),
    )


def build_local_queue(obj: KubeObject) -> LocalQueue:
    spec = as_dict(obj.data.get("spec"))
    afs_status = as_dict(as_dict(as_dict(obj.data.get("status")).get("fairSharing")).get("admissionFairSharingStatus"))
    return LocalQueue(
        source=obj,
        name=obj.name,
        namespace=obj.namespace or "default",
        cluster_queue=as_str(spec.get("clusterQueue")),
        stop_policy=_enum(spec.get("stopPolicy"), "None"),
        fair_sharing=_fair_sharing(spec.get("fairSharing"), ("spec", "fairSharing")),
        afs_consumed=tuple(sorted(quantity_map(afs_status.get("consumedResources")).items())),
        afs_last_update=as_str(afs_status.get("lastUpdate")),
    )


def build_workload_priority_class(obj: KubeObject) -> WorkloadPriorityClass:
    return WorkloadPriorityClass(
        source=obj, name=obj.name, value=as_int(obj.data.get("value")), description=as_str(obj.data.get("description"))
    )


def build_priority_class(obj: KubeObject) -> PriorityClass:
    return PriorityClass(
        source=obj,
        name=obj.name,
        value=as_int(obj.data.get("value")),
        global_default=as_bool(obj.data.get("globalDefault")) or False,
        preemption_policy=_enum(obj.data.get("preemptionPolicy"), "PreemptLowerPriority"),
    )


def build_namespace(obj: KubeObject) -> Namespace:
    labels = str_map(obj.metadata.get("labels"))
    # Kubernetes labels every namespace with its own name.
    if obj.name:
        labels.setdefault("kubernetes.io/metadata.name", obj.name)
    return Namespace(source=obj, name=obj.name, labels=labels)


def _priority_class_ref(spec: dict, version: str) -> tuple[PriorityClassRef | None, Path]:
    if version == "v1beta1":
        name = as_str(spec.get("priorityClassName"))
        source = spec.get("priorityClassSource", "")
        if not name:
            return None, ("spec", "priorityClassName")
        if source == "kueue.x-k8s.io/workloadpriorityclass":
            return PriorityClassRef("kueue.x-k8s.io", "WorkloadPriorityClass", name), ("spec", "priorityClassName")
        if source == "scheduling.k8s.io/priorityclass":
            return PriorityClassRef("scheduling.k8s.io", "PriorityClass", name), ("spec", "priorityClassName")
        # An empty source converts to no reference at all (kueue apis/kueue/v1beta1/workload_conversion.go).
        return None, ("spec", "priorityClassName")
    ref = spec.get("priorityClassRef")
    if not isinstance(ref, dict):
        return None, ("spec", "priorityClassRef")
    return PriorityClassRef(as_str(ref.get("group")), as_str(ref.get("kind")), as_str(ref.get("name"))), (
        "spec", "priorityClassRef")


def _pod_sets(raw) -> tuple[PodSet, ...]:
    pod_sets = []
    for i, ps in enumerate(as_list(raw)):
        ps = as_dict(ps)
        template = as_dict(ps.get("template"))
        count = as_int(ps.get("count"))
        tmeta = as_dict(template.get("metadata"))
        pod_sets.append(
            PodSet(
                name=as_str(ps.get("name")) or "main",
                count=1 if count is None else count,
                min_count=as_int(ps.get("minCount")),
                pod=pod_spec_info(template.get("spec")),
                path=("spec", "podSets", i),
                resource_holders=resource_holders(template.get("spec")),
                labels=str_map(tmeta.get("labels")),
                annotations=str_map(tmeta.get("annotations")),
                topology_request=build_topology_request(ps.get("topologyRequest"),
                                                        str_map(tmeta.get("annotations"))),
                claims=claim_sources(as_dict(template.get("spec"))),
            )
        )
    return tuple(pod_sets)


def _shared(shared: dict | None, raw, convert):
    """``convert(raw)``, once per raw object when ``shared`` (one model build's memo) is given:
    a generator shares one pod set list and label map between the many Workloads of a shape, and
    the models built from them are immutable.  The memo keeps ``raw`` alive, so its id is not
    reused while the build runs."""
    if shared is None or not isinstance(raw, (list, dict)):
        return convert(raw)
    hit = shared.get(id(raw))
    if hit is not None and hit[0] is raw:
        return hit[1]
    built = convert(raw)
    shared[id(raw)] = (raw, built)
    return built


def build_workload(obj: KubeObject, shared: dict | None = None) -> Workload:
    """``shared``: see ``_shared`` (``build_cluster`` passes one memo for all its Workloads)."""
    spec = as_dict(obj.data.get("spec"))
    status = as_dict(obj.data.get("status"))
    md = obj.metadata
    pod_sets = _shared(shared, spec.get("podSets"), _pod_sets)
    admission = None
    raw_adm = status.get("admission")
    if isinstance(raw_adm, dict):
        psas = []
        for k, psa in enumerate(as_list(raw_adm.get("podSetAssignments"))):
            psa = as_dict(psa)
            psas.append(
                PodSetAssignment(
                    name=as_str(psa.get("name")) or "main",
                    flavors={str(r): str(f) for r, f in as_dict(psa.get("flavors")).items()},
                    resource_usage=quantity_map(psa.get("resourceUsage")),
                    count=as_int(psa.get("count")),
                    path=("status", "admission", "podSetAssignments", k),
                    topology_assignment=build_topology_assignment(psa.get("topologyAssignment")),
                )
            )
        admission = Admission(as_str(raw_adm.get("clusterQueue")), tuple(psas), _admission_owner(md))
    conditions = {}
    for c in as_list(status.get("conditions")):
        c = as_dict(c)
        ctype = as_str(c.get("type"))
        if ctype:
            conditions[ctype] = Condition(
                ctype, as_str(c.get("status")) if not isinstance(c.get("status"), bool) else str(c.get("status")),
                as_str(c.get("reason")), as_str(c.get("message")), as_str(c.get("lastTransitionTime")) or (
                    str(c.get("lastTransitionTime")) if c.get("lastTransitionTime") is not None else None),
            )
    reclaimable = {}
    for r in as_list(status.get("reclaimablePods")):
        r = as_dict(r)
        n, cnt = as_str(r.get("name")), as_int(r.get("count"))
        if n and cnt is not None:
            reclaimable[n] = cnt
    ref, ref_path = _priority_class_ref(spec, obj.version)
    active = spec.get("active")
    created = md.get("creationTimestamp")
    return Workload(
        source=obj,
        name=obj.name,
        namespace=obj.namespace or "default",
        uid=as_str(md.get("uid")),
        creation_timestamp=str(created) if created is not None else None,
        labels=_shared(shared, md.get("labels"), str_map),
        annotations=_shared(shared, md.get("annotations"), str_map),
        queue_name=as_str(spec.get("queueName")),
        priority=as_int(spec.get("priority")),
        priority_class_ref=ref,
        priority_class_ref_path=ref_path,
        active=active is not False,
        pod_sets=pod_sets,
        admission=admission,
        conditions=conditions,
        reclaimable_pods=reclaimable,
        maximum_execution_time_seconds=as_int(spec.get("maximumExecutionTimeSeconds")),
        admission_checks=tuple(
            AdmissionCheckState(as_str(as_dict(c).get("name")), as_str(as_dict(c).get("state")),
                                as_str(as_dict(c).get("message")))
            for c in as_list(status.get("admissionChecks"))),
        owner_kind=_owner_kind(md),
    )


def _admission_owner(md: dict) -> tuple[str, str] | None:
    """(manager, operation) of the managedFields entry of the status subresource that owns
    ``status.admission`` (the last one when several claim it), or None."""
    owner = None
    for entry in as_list(md.get("managedFields")):
        entry = as_dict(entry)
        fields_v1 = as_dict(entry.get("fieldsV1"))
        if "f:admission" in as_dict(fields_v1.get("f:status")):
            owner = (as_str(entry.get("manager")) or "", as_str(entry.get("operation")) or "")
    return owner


def _owner_kind(md: dict) -> str | None:
    """The kind of the object that owns a Workload: the controller reference's, else the first."""
    refs = [r for r in as_list(md.get("ownerReferences")) if isinstance(r, dict) and as_str(r.get("kind"))]
    ref = next((r for r in refs if r.get("controller") is True), refs[0] if refs else None)
    return as_str(ref.get("kind")) if ref is not None else None


@dataclass(frozen=True)
class WorkloadRoute:
    """Where a Workload object queues or holds quota, read without building the whole Workload
    (``explain`` reads it for every Workload to pick the few it must model)."""

    name: str
    key: str  # namespace/name
    queue_name: str | None
    admitted_cluster_queue: str | None  # status.admission.clusterQueue, any condition
    reserved_cluster_queue: str | None  # the same, only while QuotaReserved=True
    holds_topology: bool = False  # a podSetAssignment has a topologyAssignment (uses TAS nodes)


def workload_route(obj: KubeObject) -> WorkloadRoute | None:
    """None for an object without a name (it cannot be looked up)."""
    name = obj.metadata.get("name")
    if name is None:
        return None
    name = name if isinstance(name, str) else str(name)
    ns = obj.metadata.get("namespace")
    status = as_dict(obj.data.get("status"))
    admitted = as_str(as_dict(status.get("admission")).get("clusterQueue"))
    reserved = any(as_dict(c).get("type") == "QuotaReserved" and as_dict(c).get("status") == "True"
                   for c in as_list(status.get("conditions")))
    holds = any(isinstance(psa, dict) and psa.get("topologyAssignment") is not None
                for psa in as_list(as_dict(status.get("admission")).get("podSetAssignments")))
    return WorkloadRoute(name, f"{ns if isinstance(ns, str) else 'default'}/{name}",
                         as_str(as_dict(obj.data.get("spec")).get("queueName")), admitted,
                         admitted if reserved else None, holds)


# Pod template annotations Kueue's job integrations turn into a pod set's topologyRequest
# (kueue pkg/controller/jobframework/tas.go; apis/kueue/v1beta2 constants).
TOPOLOGY_ANNOTATIONS = (
    "kueue.x-k8s.io/podset-required-topology",
    "kueue.x-k8s.io/podset-preferred-topology",
    "kueue.x-k8s.io/podset-unconstrained-topology",
    "kueue.x-k8s.io/podset-slice-required-topology",
    "kueue.x-k8s.io/podset-slice-size",
)


@dataclass(frozen=True)
class WorkloadTraits:
    """What the caveats (kueue/caveats.py) need of a Workload, read without building it: explain
    models only the Workloads of one cohort tree, the caveats are those of the whole input."""

    display: str  # Workload/namespace/name
    topology_request: bool  # a pod set has a topologyRequest, or Kueue's topology annotations
    resource_claims: bool  # a pod set's template has DRA resource claims
    check_states: tuple[tuple[str | None, str | None], ...]  # status.admissionChecks (name, state)
    # a pod set with several slice layers whose outer size does not divide its count (Kueue's job
    # webhook rejects it under TASPartialSlices, kueue PR #15640)
    uneven_slice_layers: bool = False
    claim_templates: tuple[tuple[str, str], ...] = ()  # DRA: the (namespace, name) of the templates it uses
    # waitForPodsReady of its own (kueue.x-k8s.io/pods-ready-timeout, spec.waitForPodsReady)
    pods_ready_timeout: bool = False
    answered_checks: tuple[str, ...] = ()  # the checks its quotactl.io/check.<name> annotations answer


def workload_traits(obj: KubeObject) -> WorkloadTraits | None:
    """None for a Workload with none of the traits (most of a big snapshot: read fast)."""
    topology = claims = uneven = False
    for ps in as_list(as_dict(obj.data.get("spec")).get("podSets")):
        t, c = _pod_set_traits(ps) if isinstance(ps, dict) else (False, False)
        topology, claims = topology or t, claims or c
        if t and not uneven:
            request = build_topology_request(ps.get("topologyRequest"), str_map(as_dict(as_dict(
                ps.get("template")).get("metadata")).get("annotations")))
            layers = request.slice_layers() if request is not None else ()
            count = as_int(ps.get("count"))
            uneven = len(layers) > 1 and layers[0].size > 0 and count is not None and count % layers[0].size != 0
    raw_checks = as_dict(obj.data.get("status")).get("admissionChecks")
    notes = as_dict(obj.metadata.get("annotations"))
    own_timeout = POD_READY_TIMEOUT_ANNOTATION in notes or "waitForPodsReady" in as_dict(obj.data.get("spec"))
    answered = tuple(sorted(str(k)[len(CHECK_ANNOTATION_PREFIX):] for k in notes
                            if str(k).startswith(CHECK_ANNOTATION_PREFIX)))
    if not (topology or claims or raw_checks or own_timeout or answered):
        return None
    checks = tuple((as_str(as_dict(c).get("name")), as_str(as_dict(c).get("state"))) for c in as_list(raw_checks))
    templates = tuple(dict.fromkeys(
        (obj.namespace or "default", src.template)
        for ps in as_list(as_dict(obj.data.get("spec")).get("podSets"))
        for src in claim_sources(as_dict(as_dict(as_dict(ps).get("template")).get("spec"))) if src.template))
    return WorkloadTraits(obj.display, topology, claims, checks, uneven, templates, own_timeout, answered)


POD_READY_TIMEOUT_ANNOTATION = "kueue.x-k8s.io/pods-ready-timeout"  # Kueue v0.20 WorkloadLevelWaitForPodsReady
CHECK_ANNOTATION_PREFIX = "quotactl.io/check."  # simulate/lifecycle.py: a check's answer for this workload
OUTCOME_ANNOTATION = "quotactl.io/outcome"  # on an AdmissionCheck: its answer for every other workload


def _pod_set_traits(ps: dict) -> tuple[bool, bool]:
    """(topology requested, resource claims) of one pod set."""
    template = as_dict(ps.get("template"))
    annotations = as_dict(as_dict(template.get("metadata")).get("annotations"))
    topology = isinstance(ps.get("topologyRequest"), dict) or not annotations.keys().isdisjoint(TOPOLOGY_ANNOTATIONS)
    return topology, has_resource_claims(as_dict(template.get("spec")))


def build_configuration(obj: KubeObject) -> KueueConfiguration:
    data = obj.data
    fs = data.get("fairSharing")
    if obj.version == "v1beta1":
        enabled = isinstance(fs, dict) and fs.get("enable") is True
        strategies = tuple(as_list(as_dict(fs).get("preemptionStrategies"))) or (
            ("LessThanOrEqualToFinalShare", "LessThanInitialShare") if enabled else ())
    else:
        enabled = isinstance(fs, dict)
        strategies = tuple(as_list(as_dict(fs).get("preemptionStrategies")))
    resources = as_dict(data.get("resources"))
    gates = {str(k): v for k, v in as_dict(data.get("featureGates")).items() if isinstance(v, bool)}
    return KueueConfiguration(
        source=obj,
        fair_sharing_enabled=enabled,
        preemption_strategies=tuple(str(s) for s in strategies),
        feature_gates=gates,
        exclude_resource_prefixes=tuple(str(p) for p in as_list(resources.get("excludeResourcePrefixes"))),
        quota_check_strategy=_enum(resources.get("quotaCheckStrategy"), "BlockUndeclared"),
        transformations=tuple(_transformation(t) for t in as_list(resources.get("transformations"))),
        requeuing_timestamp=_requeuing_timestamp(data),
        wait_for_pods_ready=_wait_for_pods_ready(obj),
        pods_ready=_pods_ready(obj) if _wait_for_pods_ready(obj) else None,
        admission_fair_sharing=isinstance(data.get("admissionFairSharing"), dict),
        afs_half_life=as_dict(data.get("admissionFairSharing")).get("usageHalfLifeTime"),
        afs_sampling_interval=as_dict(data.get("admissionFairSharing")).get("usageSamplingInterval"),
        afs_resource_weights=tuple((str(k), v) for k, v in
                                   as_dict(as_dict(data.get("admissionFairSharing")).get("resourceWeights")).items()),
        device_class_mappings=device_class_mappings(resources.get("deviceClassMappings")),
        manage_jobs_without_queue_name=data.get("manageJobsWithoutQueueName") is True,
        managed_jobs_namespace_selector=_label_selector(data.get("managedJobsNamespaceSelector"),
                                                        ("managedJobsNamespaceSelector",)),
    )


def _wait_for_pods_ready(obj: KubeObject) -> bool:
    wfpr = obj.data.get("waitForPodsReady")
    if obj.version == "v1beta1":
        return isinstance(wfpr, dict) and wfpr.get("enable") is True
    return isinstance(wfpr, dict)


def _pods_ready(obj: KubeObject) -> WaitForPodsReady:
    wfpr = as_dict(obj.data.get("waitForPodsReady"))
    rs = as_dict(wfpr.get("requeuingStrategy"))
    block = wfpr.get("blockAdmission")
    if obj.version == "v1beta1" and block is None:
        # apis/config/v1beta1/defaults.go: blockAdmission defaults to enable (v1beta2: to false)
        block = wfpr.get("enable") is True

    def text(v) -> str | None:
        return None if v is None else str(v)

    return WaitForPodsReady(
        timeout=text(wfpr.get("timeout")),
        block_admission=block is True,
        recovery_timeout=text(wfpr.get("recoveryTimeout")),
        backoff_limit_count=as_int(rs.get("backoffLimitCount")),
        backoff_base_seconds=as_int(rs.get("backoffBaseSeconds")),
        backoff_max_seconds=as_int(rs.get("backoffMaxSeconds")),
        unscheduled_timeout=text(wfpr.get("unscheduledTimeout")),
    )


def _transformation(raw) -> ResourceTransformation:
    raw = as_dict(raw)
    return ResourceTransformation(
        input=as_str(raw.get("input")),
        strategy=as_str(raw.get("strategy")) or "Retain",
        outputs=quantity_map(raw.get("outputs")),
    )


def _requeuing_timestamp(data: dict) -> str | None:
    rs = as_dict(as_dict(data.get("waitForPodsReady")).get("requeuingStrategy"))
    ts = rs.get("timestamp")
    return ts if ts in ("Eviction", "Creation") else None


BUILDERS = {
    "ResourceFlavor": build_resource_flavor,
    "ClusterQueue": build_cluster_queue,
    "Cohort": build_cohort,
    "LocalQueue": build_local_queue,
    "WorkloadPriorityClass": build_workload_priority_class,
    "Workload": build_workload,
    "Configuration": build_configuration,
    "PriorityClass": build_priority_class,
    "Namespace": build_namespace,
    "ResourceClaimTemplate": build_device_claim_spec,
    **CHECK_BUILDERS,
    **TAS_BUILDERS,
}


def build(obj: KubeObject, shared: dict | None = None) -> KueueObject | None:
    """The model of one object (None for a kind the model does not hold); ``shared``: see ``_shared``."""
    if obj.kind == "Workload":
        return build_workload(obj, shared)
    builder = BUILDERS.get(obj.kind)
    return builder(obj) if builder else None


# ------------------------------------------------------------------------- the cluster --------

@dataclass(frozen=True)
class CohortCycles:
    """The parentName cycles among the Cohorts (``hierarchy.HasCycle``)."""

    cycles: tuple[tuple[str, ...], ...]  # each cycle once, its members in parent order
    doomed: frozenset[str]  # every cohort whose parent chain runs into a cycle, members included

@dataclass
class KueueCluster:
    """All Kueue objects of one input, indexed by name.  Of two duplicates the later wins, as after
    ``kubectl apply`` (``load.overrides``; the engines' input holds no duplicate, the lint rule KQ504
    reports them); lists keep every object for linting."""

    resource_flavors: dict[str, ResourceFlavor] = field(default_factory=dict)
    cluster_queues: dict[str, ClusterQueue] = field(default_factory=dict)
    cohorts: dict[str, Cohort] = field(default_factory=dict)
    local_queues: dict[tuple[str, str], LocalQueue] = field(default_factory=dict)  # (namespace, name)
    workload_priority_classes: dict[str, WorkloadPriorityClass] = field(default_factory=dict)
    priority_classes: dict[str, PriorityClass] = field(default_factory=dict)
    namespaces: dict[str, Namespace] = field(default_factory=dict)
    workloads: dict[str, Workload] = field(default_factory=dict)  # "namespace/name"
    configuration: KueueConfiguration | None = None
    admission_checks: dict[str, AdmissionCheck] = field(default_factory=dict)
    topologies: dict[str, Topology] = field(default_factory=dict)
    multikueue_clusters: dict[str, MultiKueueCluster] = field(default_factory=dict)
    multikueue_configs: dict[str, MultiKueueConfig] = field(default_factory=dict)
    provisioning_request_configs: dict[str, ProvisioningRequestConfig] = field(default_factory=dict)
    all_objects: list[KueueObject] = field(default_factory=list)
    # Topology-aware scheduling's capacity and non-TAS usage (kept out of all_objects: not linted
    # as Kueue objects)
    nodes: dict[str, Node] = field(default_factory=dict)
    pods: list[Pod] = field(default_factory=list)
    # DRA: the ResourceClaimTemplates by (namespace, name) (kept out of all_objects: not Kueue objects)
    claim_templates: dict[tuple[str, str], DeviceClaimSpec] = field(default_factory=dict)

    def cohort_members(self, cohort: str) -> list[ClusterQueue]:
        return [cq for cq in self._members().get(cohort, []) if self.cluster_queues.get(cq.name) is cq]

    def all_cohort_members(self, cohort: str) -> list[ClusterQueue]:
        """Every ClusterQueue object naming ``cohort``, duplicates included (for linting)."""
        return list(self._members().get(cohort, []))

    def has_kind(self, kind: str) -> bool:
        if "_kinds" not in self.__dict__:
            self.__dict__["_kinds"] = {o.source.kind for o in self.all_objects}
        return kind in self.__dict__["_kinds"]

    def _members(self) -> dict[str, list[ClusterQueue]]:
        # Indexes are built once, on first use: rules ask per object, and inputs can hold thousands.
        if "_members_index" not in self.__dict__:
            index: dict[str, list[ClusterQueue]] = {}
            for o in self.all_objects:
                if isinstance(o, ClusterQueue) and o.cohort:
                    index.setdefault(o.cohort, []).append(o)
            self.__dict__["_members_index"] = index
        return self.__dict__["_members_index"]

    def child_cohorts(self, cohort: str) -> list[Cohort]:
        return [c for c in self.cohorts.values() if c.parent == cohort]

    def cohort_cycles(self) -> CohortCycles:
        """One walk up from every Cohort, each visited once (linear in the number of Cohorts).
        A cohort without an object has no parent, so it can be in no cycle."""
        if "_cohort_cycles" not in self.__dict__:
            cycles: list[tuple[str, ...]] = []
            doomed: set[str] = set()
            done: set[str] = set()
            for start in self.cohorts:
                path: list[str] = []
                index: dict[str, int] = {}
                cur: str | None = start
                while cur is not None and cur not in done and cur not in index:
                    index[cur] = len(path)
                    path.append(cur)
                    co = self.cohorts.get(cur)
                    cur = (co.parent or None) if co is not None else None
                if cur is not None and cur in index:
                    cycles.append(tuple(path[index[cur]:]))
                if cur is not None and (cur in index or cur in doomed):
                    doomed.update(path)
                done.update(path)
            self.__dict__["_cohort_cycles"] = CohortCycles(tuple(cycles), frozenset(doomed))
        return self.__dict__["_cohort_cycles"]

    def cohort_names(self) -> set[str]:
        """Every cohort that exists, explicitly or implicitly (named by a CQ or as a parent)."""
        names = set(self.cohorts)
        names.update(cq.cohort for cq in self.cluster_queues.values() if cq.cohort)
        names.update(c.parent for c in self.cohorts.values() if c.parent)
        return names

    def local_queue_of(self, wl: Workload) -> LocalQueue | None:
        """The LocalQueue ``spec.queueName`` names in the workload's namespace."""
        return self.local_queues.get((wl.namespace, wl.queue_name or ""))

    def cluster_queue_name_of(self, wl: Workload) -> str | None:
        """The ClusterQueue a workload is queued to (spec.queueName -> LocalQueue), whether it exists or not."""
        lq = self.local_queue_of(wl)
        return lq.cluster_queue if lq is not None else None

    def cluster_queue_for(self, wl: Workload) -> ClusterQueue | None:
        return self.cluster_queue_behind(wl.namespace, wl.queue_name)

    def cluster_queue_behind(self, namespace: str | None, queue_name: str | None) -> ClusterQueue | None:
        """The ClusterQueue of the LocalQueue ``queue_name`` in ``namespace`` (a Workload's or a job's)."""
        lq = self.local_queues.get((namespace, queue_name or ""))
        return self.cluster_queues.get(lq.cluster_queue) if lq is not None and lq.cluster_queue else None

    def copy(self) -> KueueCluster:
        """The same models in new indexes (``build_cluster(..., onto=)`` adds to the copy); the
        indexes built on first use are built again for the copy."""
        return KueueCluster(**{f.name: _copied(getattr(self, f.name)) for f in fields(self)})

    def add(self, model: KueueObject) -> None:
        """File one model under its kind (while the cluster is built: see ``copy``)."""
        if isinstance(model, Node):
            if model.name:
                self.nodes[model.name] = model
            return
        if isinstance(model, Pod):
            self.pods.append(model)
            return
        if isinstance(model, DeviceClaimSpec):
            if model.name:
                self.claim_templates[(model.namespace, model.name)] = model
            return
        self.all_objects.append(model)
        name = getattr(model, "name", None)
        if isinstance(model, Workload):  # most objects of a big input: their index first
            if name:
                self.workloads[model.key] = model
        elif isinstance(model, KueueConfiguration):
            self.configuration = model
        elif name:
            index = _INDEX.get(type(model).__name__)
            if index is not None:
                getattr(self, index)[(model.namespace, name) if isinstance(model, LocalQueue) else name] = model


def _copied(value):
    return value.copy() if isinstance(value, (dict, list)) else value


# Model type -> its KueueCluster index, by name (LocalQueues by namespace and name; the later of
# duplicates wins).
_INDEX = {
    "ResourceFlavor": "resource_flavors", "ClusterQueue": "cluster_queues", "Cohort": "cohorts",
    "LocalQueue": "local_queues", "WorkloadPriorityClass": "workload_priority_classes",
    "PriorityClass": "priority_classes", "Namespace": "namespaces",
    "AdmissionCheck": "admission_checks", "Topology": "topologies", "MultiKueueCluster": "multikueue_clusters",
    "MultiKueueConfig": "multikueue_configs", "ProvisioningRequestConfig": "provisioning_request_configs",
}


@dataclass
class BuildMemo:
    """What one run has built, so that nothing is built twice: each object's model (by identity;
    the memo keeps the object alive, so its id is not reused) and ``_shared``'s pod sets and maps."""

    models: dict[int, tuple[KubeObject, KueueObject | None]] = field(default_factory=dict)
    shared: dict = field(default_factory=dict)

    def model(self, obj: KubeObject) -> KueueObject | None:
        hit = self.models.get(id(obj))
        if hit is None:
            hit = self.models[id(obj)] = (obj, build(obj, self.shared))
        return hit[1]


def build_cluster(objects: list[KubeObject], onto: KueueCluster | None = None,
                  memo: BuildMemo | None = None) -> KueueCluster:
    """The model of ``objects``. ``onto``: a new cluster holding ``onto``'s models (not built again)
    and then those of ``objects``, as if built from ``onto``'s objects followed by ``objects``.
    ``memo``: the run's models, reused (``model.kueue_input.KueueInput`` passes one)."""
    with fewer_gc_pauses():  # a big input: tens of thousands of fresh objects, no cycles
        cluster = onto.copy() if onto is not None else KueueCluster()
        models = memo.model if memo is not None else partial(build, shared={})  # see _shared
        built = [m for m in map(models, objects) if m is not None]
        dra = _DraContext(cluster, built) if any(_has_claims(m) for m in built) else None
        for model in built:
            cluster.add(dra.resolved(model) if dra is not None and _has_claims(model) else model)
        return cluster


def _has_claims(model: KueueObject) -> bool:
    return isinstance(model, Workload) and any(ps.claims for ps in model.pod_sets)


class _DraContext:
    """What resolving DRA claims reads (kueue ``handleDRA``, before a workload is queued): the
    device class mappings of the Configuration and the ResourceClaimTemplates, those ``onto``
    holds and those of the objects being added, whatever their order in the input."""

    def __init__(self, onto: KueueCluster, built: list[KueueObject]):
        cfg = next((m for m in reversed(built) if isinstance(m, KueueConfiguration)), onto.configuration)
        self.mapping = class_to_resource(cfg.device_class_mappings) if cfg is not None else {}
        self.templates = dict(onto.claim_templates)
        self.templates.update({(m.namespace, m.name): m for m in built if isinstance(m, DeviceClaimSpec) and m.name})

    def resolved(self, wl: Workload) -> Workload:
        pod_sets = [(ps.name, i, ps.claims) for i, ps in enumerate(wl.pod_sets)]
        return replace(wl, dra=resolve_claims(wl.namespace, pod_sets, self.templates, self.mapping))
