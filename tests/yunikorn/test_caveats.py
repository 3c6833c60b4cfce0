"""One test pair per YuniKorn caveat detector: the feature present gives its caveat, absent gives none."""

from __future__ import annotations

from quotactl.model.yunikorn_cluster import build_objects
from quotactl.yunikorn.caveats import yunikorn_caveats
from tests.kueue.builders import objects


def pod(name="p", scheduler="yunikorn", annotations=None, phase="Pending", **spec):
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "ml", "annotations": annotations or {}},
            "spec": {"schedulerName": scheduler, "containers": [{"name": "c", "image": "x"}], **spec},
            "status": {"phase": phase}}


def features(*pods) -> dict:
    return {c.feature: c.objects for c in yunikorn_caveats(build_objects(objects(list(pods))))}


ANTI_AFFINITY = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
    {"labelSelector": {"matchLabels": {"app": "a"}}, "topologyKey": "kubernetes.io/hostname"}]}}


def test_plain_pods_have_no_caveat():
    assert features(pod(), pod("q", affinity={"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 1, "podAffinityTerm": {"topologyKey": "zone"}}]}})) == {}


def test_a_task_group_is_the_gang_scheduling_caveat():
    assert features(pod(annotations={"yunikorn.apache.org/task-group-name": "workers"})) == {
        "GangScheduling": ("Pod/ml/p",)}


def test_required_pod_anti_affinity_and_hard_topology_spread_are_a_caveat():
    assert features(pod(affinity=ANTI_AFFINITY)) == {"InterPodConstraints": ("Pod/ml/p",)}
    spread = [{"maxSkew": 1, "topologyKey": "zone", "labelSelector": {}}]
    assert features(pod(topologySpreadConstraints=spread)) == {"InterPodConstraints": ("Pod/ml/p",)}
    soft = [{**spread[0], "whenUnsatisfiable": "ScheduleAnyway"}]
    assert features(pod(topologySpreadConstraints=soft)) == {}


def test_resource_claims_are_a_caveat():
    assert features(pod(resourceClaims=[{"name": "gpu"}])) == {"DynamicResourceAllocation": ("Pod/ml/p",)}


def test_other_schedulers_pods_and_finished_pods_carry_no_caveat():
    assert features(pod(scheduler="default-scheduler", affinity=ANTI_AFFINITY),
                    pod("done", phase="Succeeded", affinity=ANTI_AFFINITY)) == {}
