"""The YuniKorn features present in an input that can change the answer and that quotactl does not
model: one detector per feature (``DETECTORS``), each a small pure function over the typed pods.
Only YuniKorn's own unfinished pods (spec.schedulerName yunikorn) count: other schedulers' pods
merely occupy their nodes.  A detector is deleted when its feature gets modelled."""

from __future__ import annotations

from quotactl.caveat import Caveat, caveat, run_detectors
from quotactl.model.yunikorn_cluster import ClusterObjects, Pod
from quotactl.yunikorn.shim import SCHEDULER_NAME, TERMINAL_PHASES

# Gang scheduling (yunikorn-k8shim pkg/common/constants: AnnotationTaskGroups, AnnotationTaskGroupName).
TASK_GROUPS = "yunikorn.apache.org/task-groups"
TASK_GROUP_NAME = "yunikorn.apache.org/task-group-name"


def yunikorn_caveats(objects: ClusterObjects) -> tuple[Caveat, ...]:
    """Every caveat of the input, sorted by feature."""
    pods = tuple(p for p in objects.pods if p.scheduler_name == SCHEDULER_NAME and p.phase not in TERMINAL_PHASES)
    return run_detectors(DETECTORS, pods)


def _display(pod: Pod) -> str:
    return f"Pod/{pod.namespace}/{pod.name}"


def gang_scheduling(pods: tuple[Pod, ...]) -> Caveat | None:
    """Task groups: YuniKorn reserves room with placeholder pods for the whole gang first."""
    names = [_display(p) for p in pods if TASK_GROUPS in p.annotations or TASK_GROUP_NAME in p.annotations]
    return caveat("GangScheduling", names,
                  "quotactl places each pod on its own; YuniKorn first reserves room for the whole task group with "
                  "placeholder pods and gives up on the gang after its timeout")


def inter_pod_constraints(pods: tuple[Pod, ...]) -> Caveat | None:
    """Required pod (anti-)affinity and DoNotSchedule topology spread: the shim's InterPodAffinity and
    PodTopologySpread filters, which predicates.py does not evaluate."""
    names = [_display(p) for p in pods if p.spec.inter_pod_constraints]
    return caveat("InterPodConstraints", names,
                  "quotactl checks node selectors, node affinity, taints and resources; YuniKorn also applies "
                  "required pod affinity, anti-affinity and topology spread, which may rule out the node chosen "
                  "here")


def dynamic_resource_allocation(pods: tuple[Pod, ...]) -> Caveat | None:
    """Resource claims: the shim's DynamicResources filter allocates devices, which quotactl does not."""
    names = [_display(p) for p in pods if p.spec.resource_claims]
    return caveat("DynamicResourceAllocation", names,
                  "quotactl places pods by their resource requests only; YuniKorn also needs the devices their "
                  "resource claims ask for on the node")


DETECTORS = (gang_scheduling, inter_pod_constraints, dynamic_resource_allocation)
