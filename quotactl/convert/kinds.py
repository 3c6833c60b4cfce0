"""One object, v1beta1 (v1alpha1 Cohort) -> v1beta2, field by field as Kueue converts it.

Each function edits the object's mapping in place and yields a ``Loss`` for every value v1beta2 has
no place for.  Sources: kueue apis/kueue/v1beta1/{clusterqueue,cohort,localqueue,workload}_conversion.go
and the ``WARNING: ... does not exist in peer-type`` fields of zz_generated.conversion.go;
apis/config/v1beta1/configuration_conversion.go for the manager Configuration."""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass

from quotactl.convert.mapping import drop_key, rename_key, replace_key
from quotactl.convert.topology import v1beta2_topology_assignment

KUEUE = "kueue.x-k8s.io"
CONFIG = "config.kueue.x-k8s.io"
TARGET = "v1beta2"

# v1beta1 spec.priorityClassSource -> the v1beta2 priorityClassRef group and kind
# (kueue apis/kueue/v1beta2 NewWorkloadPriorityClassRef / NewPodPriorityClassRef).
PRIORITY_SOURCES = {
    "kueue.x-k8s.io/workloadpriorityclass": ("kueue.x-k8s.io", "WorkloadPriorityClass"),
    "scheduling.k8s.io/priorityclass": ("scheduling.k8s.io", "PriorityClass"),
}
DEFAULT_FAIR_SHARING_STRATEGIES = ["LessThanOrEqualToFinalShare", "LessThanInitialShare"]
DEFAULT_PODS_READY_TIMEOUT = "5m"  # kueue apis/config/v1beta1/defaults.go defaultPodsReadyTimeout


@dataclass(frozen=True)
class Loss:
    """A value the conversion drops.  ``error``: something the user wrote (nothing is written
    unless forced); ``warning``: status Kueue writes and recomputes."""

    path: tuple
    message: str
    severity: str = "error"


Converter = Callable[[MutableMapping], Iterator[Loss]]


def _map(value) -> MutableMapping | None:
    return value if isinstance(value, MutableMapping) else None


def _given(m: MutableMapping | None, key: str) -> bool:
    """Present with a value Go would not leave empty (nil, "", [] and {} convert to nothing)."""
    return m is not None and key in m and m[key] not in (None, "", [], {})


def _drop_status(obj: MutableMapping, path: tuple, why: str) -> Iterator[Loss]:
    parent = obj
    for key in path[:-1]:
        parent = _map(parent.get(key))
        if parent is None:
            return
    if path[-1] not in parent:
        return
    if _given(parent, path[-1]):
        yield Loss(path, f"dropped: {why}", "warning")
    drop_key(parent, path[-1])


def cluster_queue(obj: MutableMapping) -> Iterator[Loss]:
    """Convert_v1beta1_ClusterQueueSpec_To_v1beta2_ClusterQueueSpec."""
    spec = _map(obj.get("spec"))
    if spec is not None:
        if "cohort" in spec:
            rename_key(spec, "cohort", "cohortName")
        yield from _admission_checks(spec)
        fungibility = _map(spec.get("flavorFungibility"))
        if fungibility is not None:
            for key, old in (("whenCanBorrow", "Borrow"), ("whenCanPreempt", "Preempt")):
                if fungibility.get(key) == old:
                    fungibility[key] = "MayStopSearch"
    yield from _drop_status(obj, ("status", "pendingWorkloadsStatus"), "v1beta2 has no pendingWorkloadsStatus "
                            "(unused since Kueue v0.14)")
    yield from _drop_status(obj, ("status", "fairSharing", "admissionFairSharingStatus"),
                            "v1beta2 ClusterQueue status has no admissionFairSharingStatus")


def _admission_checks(spec: MutableMapping) -> Iterator[Loss]:
    """The plain list becomes admissionChecksStrategy.admissionChecks[{name}]; it wins over a strategy."""
    if "admissionChecks" not in spec:
        return
    names = spec["admissionChecks"]
    if not isinstance(names, list) or not names:
        drop_key(spec, "admissionChecks")
        return
    if _given(spec, "admissionChecksStrategy"):
        yield Loss(("spec", "admissionChecksStrategy"), "dropped: v1beta1 sets both admissionChecks and "
                   "admissionChecksStrategy; Kueue converts the plain list and drops the strategy (its onFlavors "
                   "are lost). Move the plain list into the strategy first")
    strategy = {"admissionChecks": [{"name": name} for name in names]}
    replace_key(spec, "admissionChecks", "admissionChecksStrategy", strategy)


def cohort(obj: MutableMapping) -> Iterator[Loss]:
    """v1beta1 and v1beta2 Cohorts differ only in status (autoConvert FairSharingStatus)."""
    yield from _drop_status(obj, ("status", "fairSharing", "admissionFairSharingStatus"),
                            "v1beta2 Cohort status has no admissionFairSharingStatus")


def cohort_v1alpha1(obj: MutableMapping) -> Iterator[Loss]:
    """Kueue v0.9-v0.12's v1alpha1 Cohort: spec.parent is v1beta2's spec.parentName (Kueue has no
    conversion for it: v0.13 stopped serving v1alpha1)."""
    spec = _map(obj.get("spec"))
    if spec is not None and "parent" in spec:
        rename_key(spec, "parent", "parentName")
    yield from cohort(obj)


def local_queue(obj: MutableMapping) -> Iterator[Loss]:
    """Convert_v1beta1_LocalQueueStatus_To_v1beta2_LocalQueueStatus."""
    status = _map(obj.get("status"))
    if status is not None and "flavorUsage" in status:
        rename_key(status, "flavorUsage", "flavorsUsage")
    yield from _drop_status(obj, ("status", "flavors"), "v1beta2 LocalQueue status has no flavors list")


def workload(obj: MutableMapping) -> Iterator[Loss]:
    """Convert_v1beta1_WorkloadSpec_To_v1beta2_WorkloadSpec and ..._WorkloadStatus_To_..."""
    spec = _map(obj.get("spec"))
    if spec is not None:
        yield from _priority_class(spec)
    status = _map(obj.get("status"))
    if status is not None:
        if "accumulatedPastExexcutionTimeSeconds" in status:
            rename_key(status, "accumulatedPastExexcutionTimeSeconds", "accumulatedPastExecutionTimeSeconds")
        admission = _map(status.get("admission"))
        assignments = admission.get("podSetAssignments") if admission is not None else None
        for assignment in assignments if isinstance(assignments, list) else ():
            _topology_assignment(_map(assignment))


def _priority_class(spec: MutableMapping) -> Iterator[Loss]:
    """priorityClassSource + priorityClassName -> priorityClassRef {group, kind, name}."""
    has_name, has_source = "priorityClassName" in spec, "priorityClassSource" in spec
    if not has_name and not has_source:
        return
    name = spec.get("priorityClassName") if has_name else ""
    ref = PRIORITY_SOURCES.get(spec.get("priorityClassSource") if has_source else "")
    anchor = "priorityClassName" if has_name else "priorityClassSource"
    if ref is None:
        if name not in (None, ""):
            yield Loss(("spec", "priorityClassName"), "dropped: without priorityClassSource (kueue.x-k8s.io/"
                       "workloadpriorityclass or scheduling.k8s.io/priorityclass) Kueue converts "
                       f"priorityClassName {name!r} to no priorityClassRef")
        for key in ("priorityClassName", "priorityClassSource"):
            if key in spec:
                drop_key(spec, key)
        return
    replace_key(spec, anchor, "priorityClassRef", {"group": ref[0], "kind": ref[1], "name": name or ""})
    for key in ("priorityClassName", "priorityClassSource"):
        if key in spec:
            drop_key(spec, key)


def _topology_assignment(assignment: MutableMapping | None) -> None:
    topology = _map(assignment.get("topologyAssignment")) if assignment is not None else None
    if topology is None or "domains" not in topology:
        return
    domains = [d for d in topology.get("domains") or [] if isinstance(d, MutableMapping)]
    levels = topology.get("levels") or []
    converted = v1beta2_topology_assignment(levels, domains)
    replace_key(topology, "domains", "slices", converted["slices"])


def configuration(obj: MutableMapping) -> Iterator[Loss]:
    """Convert_v1beta1_Configuration_To_v1beta2_Configuration: a feature switched off by
    ``enable: false`` (or no ``enable``) is absent in v1beta2, and v1beta2 has no ``enable``."""
    yield from _switch(obj, "fairSharing", _fair_sharing_defaults)
    yield from _switch(obj, "waitForPodsReady", _pods_ready_defaults)
    if _given(obj, "queueVisibility"):
        yield Loss(("queueVisibility",), "dropped: config v1beta2 has no queueVisibility (replaced by the "
                   "visibility API, VisibilityOnDemand)")
    if "queueVisibility" in obj:
        drop_key(obj, "queueVisibility")
    integrations = _map(obj.get("integrations"))
    if integrations is not None and "podOptions" in integrations:
        if _given(integrations, "podOptions"):
            yield Loss(("integrations", "podOptions"), "dropped: config v1beta2 has no integrations.podOptions "
                       "(use managedJobsNamespaceSelector)")
        drop_key(integrations, "podOptions")


def _switch(obj: MutableMapping, key: str, defaults: Callable[[MutableMapping], None]) -> Iterator[Loss]:
    section = _map(obj.get(key))
    if key not in obj:
        return
    if section is None or section.get("enable") is not True:
        drop_key(obj, key)  # off in v1beta1 = absent in v1beta2: nothing Kueue acts on is lost
        return
    drop_key(section, "enable")
    defaults(section)
    yield from ()


def _fair_sharing_defaults(section: MutableMapping) -> None:
    """Convert_v1beta1_FairSharing_To_v1beta2_FairSharing: v1beta2 requires the strategies."""
    if not section.get("preemptionStrategies"):
        section["preemptionStrategies"] = list(DEFAULT_FAIR_SHARING_STRATEGIES)


def _pods_ready_defaults(section: MutableMapping) -> None:
    """Convert_v1beta1_WaitForPodsReady_To_v1beta2_WaitForPodsReady."""
    if section.get("timeout") is None:
        section["timeout"] = DEFAULT_PODS_READY_TIMEOUT
    if section.get("blockAdmission") is None:
        section["blockAdmission"] = True


def admission_check(obj: MutableMapping) -> Iterator[Loss]:
    """autoConvert_v1beta1_AdmissionCheckSpec_To_v1beta2_AdmissionCheckSpec drops retryDelayMinutes.
    Kueue has ignored it since v0.8, and the v1beta1 CRD defaults it to 15 in every stored object:
    dropping it changes nothing, so it is a warning, not a loss that blocks the file."""
    spec = _map(obj.get("spec"))
    if spec is not None and "retryDelayMinutes" in spec:
        yield Loss(("spec", "retryDelayMinutes"), "dropped: v1beta2 has no retryDelayMinutes (ignored by Kueue "
                   "since v0.8)", "warning")
        drop_key(spec, "retryDelayMinutes")


def nothing_to_convert(obj: MutableMapping) -> Iterator[Loss]:
    """ResourceFlavor, WorkloadPriorityClass, AdmissionCheck, ...: the same fields in both versions."""
    yield from ()


# (group, version, kind) -> converter; a kind not listed converts by its apiVersion alone.
CONVERTERS: dict[tuple[str, str, str], Converter] = {
    (KUEUE, "v1beta1", "ClusterQueue"): cluster_queue,
    (KUEUE, "v1beta1", "Cohort"): cohort,
    (KUEUE, "v1alpha1", "Cohort"): cohort_v1alpha1,
    (KUEUE, "v1beta1", "LocalQueue"): local_queue,
    (KUEUE, "v1beta1", "Workload"): workload,
    (KUEUE, "v1beta1", "AdmissionCheck"): admission_check,
    (CONFIG, "v1beta1", "Configuration"): configuration,
}
# The kinds whose v1beta1 objects are converted (kueue apis/kueue/v1beta1 types with a v1beta2 peer).
V1BETA1_KINDS = frozenset({"ResourceFlavor", "WorkloadPriorityClass", "Topology", "ProvisioningRequestConfig"})
# v1beta1 kinds whose conversion quotactl does not implement (MultiKueue's cluster sources and quota
# management moved): reported and left exactly as they are.
NOT_CONVERTED = frozenset({"MultiKueueCluster", "MultiKueueConfig"})


def converter_for(api_version: object, kind: object) -> Converter | None:
    """The converter of an object with this apiVersion and kind; None when it is not one to convert."""
    if not isinstance(api_version, str) or not isinstance(kind, str) or "/" not in api_version:
        return None
    group, _, version = api_version.rpartition("/")
    found = CONVERTERS.get((group, version, kind))
    if found is not None:
        return found
    if group == KUEUE and version == "v1beta1" and kind in V1BETA1_KINDS:
        return nothing_to_convert
    return None


def is_not_converted(obj: MutableMapping) -> bool:
    """A v1beta1 kind quotactl reports but leaves as it is."""
    kind = obj.get("kind")  # any YAML value: a mapping here is not a kind (and not hashable)
    return obj.get("apiVersion") == f"{KUEUE}/v1beta1" and isinstance(kind, str) and kind in NOT_CONVERTED


def convert_object(obj: MutableMapping) -> list[Loss] | None:
    """Convert one object in place to v1beta2; its losses, or None when it is not one to convert."""
    if is_not_converted(obj):
        return [Loss(("apiVersion",), f"not converted: quotactl does not convert {obj['kind']} (its v1beta2 "
                     "fields moved); convert it by hand")]
    convert = converter_for(obj.get("apiVersion"), obj.get("kind"))
    if convert is None:
        return None
    losses = list(convert(obj))
    group = obj["apiVersion"].rpartition("/")[0]
    obj["apiVersion"] = f"{group}/{TARGET}"
    return losses
