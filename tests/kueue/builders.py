"""Small builders for Kueue objects in engine tests: plain dicts as ``kubectl get -o yaml``
prints them, turned into the model through the real loader's classification."""

from __future__ import annotations

import itertools

from quotactl.kueue.nomination import make_assigner
from quotactl.kueue.options import engine_options
from quotactl.kueue.quota import build_snapshot, cq_available
from quotactl.kueue.workload import AdmittedWorkload
from quotactl.load.document import Document, ObjectRef
from quotactl.load.objects import KubeObject, classify
from quotactl.model.kueue import build_cluster

V = "kueue.x-k8s.io/v1beta2"
_uid = itertools.count(1)


def flavor(name, labels=None, taints=None, tolerations=None):
    spec = {}
    if labels:
        spec["nodeLabels"] = labels
    if taints:
        spec["nodeTaints"] = taints
    if tolerations:
        spec["tolerations"] = tolerations
    return {"apiVersion": V, "kind": "ResourceFlavor", "metadata": {"name": name}, "spec": spec}


def _groups(groups):
    """groups: [(covered, [(flavor, {res: nominal | (nominal, borrowingLimit, lendingLimit)})])]"""
    out = []
    for covered, flavors in groups:
        fl = []
        for fname, quotas in flavors:
            res = []
            for r in covered:
                q = quotas.get(r, "0")
                if isinstance(q, tuple):
                    nominal, bl, ll = (list(q) + [None, None])[:3]
                else:
                    nominal, bl, ll = q, None, None
                entry = {"name": r, "nominalQuota": str(nominal)}
                if bl is not None:
                    entry["borrowingLimit"] = str(bl)
                if ll is not None:
                    entry["lendingLimit"] = str(ll)
                res.append(entry)
            fl.append({"name": fname, "resources": res})
        out.append({"coveredResources": list(covered), "flavors": fl})
    return out


def cq(name, groups, cohort=None, within="Never", reclaim="Never", borrow=None, threshold=None,
       when_can_borrow=None, when_can_preempt=None, preference=None, stop=None, selector=None, weight=None):
    spec = {"resourceGroups": _groups(groups), "namespaceSelector": {} if selector is None else selector,
            "preemption": {"withinClusterQueue": within, "reclaimWithinCohort": reclaim}}
    if selector == "null":
        del spec["namespaceSelector"]
    if borrow:
        spec["preemption"]["borrowWithinCohort"] = {"policy": borrow}
        if threshold is not None:
            spec["preemption"]["borrowWithinCohort"]["maxPriorityThreshold"] = threshold
    ff = {}
    if when_can_borrow:
        ff["whenCanBorrow"] = when_can_borrow
    if when_can_preempt:
        ff["whenCanPreempt"] = when_can_preempt
    if preference:
        ff["preference"] = preference
    if ff:
        spec["flavorFungibility"] = ff
    if cohort:
        spec["cohortName"] = cohort
    if stop:
        spec["stopPolicy"] = stop
    if weight is not None:
        spec["fairSharing"] = {"weight": str(weight)}
    return {"apiVersion": V, "kind": "ClusterQueue", "metadata": {"name": name}, "spec": spec}


def cohort(name, parent=None, groups=None, weight=None):
    spec = {}
    if parent:
        spec["parentName"] = parent
    if groups:
        spec["resourceGroups"] = _groups(groups)
    if weight is not None:
        spec["fairSharing"] = {"weight": str(weight)}
    return {"apiVersion": V, "kind": "Cohort", "metadata": {"name": name}, "spec": spec}


def lq(name, cluster_queue, ns="default"):
    return {"apiVersion": V, "kind": "LocalQueue", "metadata": {"name": name, "namespace": ns},
            "spec": {"clusterQueue": cluster_queue}}


def _ts(seconds: int) -> str:
    return f"2026-01-01T{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}Z"


def admitted(name, cluster_queue, usage, priority=0, reserved=100, ns="default", uid=None, count=1, evicted=False,
             created=0, pod_set="main"):
    """usage: {(flavor, resource): quantity} charged to the ClusterQueue."""
    flavors = {r: f for (f, r) in usage}
    res_usage = {r: str(q) for (f, r), q in usage.items()}
    per_pod = {r: str(q) for (f, r), q in usage.items()} if count == 1 else {}
    conds = [{"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved", "message": "",
              "lastTransitionTime": _ts(reserved)},
             {"type": "Admitted", "status": "True", "reason": "Admitted", "message": "",
              "lastTransitionTime": _ts(reserved)}]
    if evicted:
        conds.append({"type": "Evicted", "status": "True", "reason": "Preempted", "message": "",
                      "lastTransitionTime": _ts(reserved + 1)})
    return {
        "apiVersion": V, "kind": "Workload",
        "metadata": {"name": name, "namespace": ns, "uid": uid or f"uid-{next(_uid):05d}",
                     "creationTimestamp": _ts(created)},
        "spec": {"queueName": "q-" + cluster_queue, "priority": priority, "podSets": [{
            "name": pod_set, "count": count,
            "template": {"spec": {"containers": [{"name": "c", "resources": {"requests": per_pod}}]}}}]},
        "status": {"admission": {"clusterQueue": cluster_queue, "podSetAssignments": [{
            "name": pod_set, "count": count, "flavors": flavors, "resourceUsage": res_usage}]},
            "conditions": conds},
    }


def pending(name, queue, requests=None, count=1, priority=0, created=1000, ns="default", pod_sets=None,
            node_selector=None, tolerations=None, uid=None):
    """requests: per-pod {resource: quantity}; pod_sets: [(name, count, requests)] overrides."""
    sets = pod_sets or [("main", count, requests or {})]
    spec_sets = []
    for ps_name, ps_count, ps_req in sets:
        pod = {"containers": [{"name": "c", "resources": {"requests": {r: str(v) for r, v in ps_req.items()}}}]}
        if node_selector:
            pod["nodeSelector"] = node_selector
        if tolerations:
            pod["tolerations"] = tolerations
        spec_sets.append({"name": ps_name, "count": ps_count, "template": {"spec": pod}})
    return {"apiVersion": V, "kind": "Workload",
            "metadata": {"name": name, "namespace": ns, "uid": uid or f"uid-{next(_uid):05d}",
                         "creationTimestamp": _ts(created)},
            "spec": {"queueName": queue, "priority": priority, "podSets": spec_sets}}


def workload_priority_class(name, value):
    return {"apiVersion": V, "kind": "WorkloadPriorityClass", "metadata": {"name": name}, "value": value}


def priority_class(name, value):
    return {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name}, "value": value}


def naming_class(wl: dict, kind: str, name: str) -> dict:
    """``wl`` with spec.priorityClassRef naming a WorkloadPriorityClass or a PriorityClass."""
    group = "kueue.x-k8s.io" if kind == "WorkloadPriorityClass" else "scheduling.k8s.io"
    wl["spec"]["priorityClassRef"] = {"group": group, "kind": kind, "name": name}
    return wl


def configuration(fair_sharing=False, strategies=None):
    fs = {"enable": fair_sharing}
    if strategies:
        fs["preemptionStrategies"] = list(strategies)
    return {"apiVersion": "config.kueue.x-k8s.io/v1beta1", "kind": "Configuration", "fairSharing": fs}


def objects(dicts):
    out = []
    for d in dicts:
        doc = Document("test.yaml", 0, d)
        out.append(KubeObject(d["apiVersion"], d["kind"], d, ObjectRef(doc, ()), classify(d["apiVersion"], d["kind"], d)))
    return out


def with_queues(dicts):
    """Add a LocalQueue ``q-<cq>`` in namespace default for every ClusterQueue."""
    extra = [lq("q-" + d["metadata"]["name"], d["metadata"]["name"]) for d in dicts if d["kind"] == "ClusterQueue"]
    return list(dicts) + extra


def snapshot_of(dicts, fair_sharing=None, gates=None):
    cluster = build_cluster(objects(with_queues(dicts)))
    options = engine_options(cluster, fair_sharing=fair_sharing, feature_gates=gates)
    return cluster, build_snapshot(cluster, options)


def assigner_for(dicts, workload_key, fair_sharing=None, gates=None):
    cluster, snap = snapshot_of(dicts, fair_sharing, gates)
    wl = cluster.workloads[workload_key]
    lqm = cluster.local_queues[(wl.namespace, wl.queue_name)]
    return cluster, snap, make_assigner(cluster, snap, wl, snap.cluster_queues[lqm.cluster_queue])


def admit_greedily(base: list[dict], candidates: list[dict]) -> list[dict]:
    """``base`` plus the admitted ``candidates`` that fit, added one by one (a state Kueue could reach)."""
    cluster = build_cluster(objects(with_queues(base)))
    snap = build_snapshot(cluster, engine_options(cluster))
    kept = []
    for d in candidates:
        wl = build_cluster(objects([d])).workloads[f"default/{d['metadata']['name']}"]
        cqn = snap.cluster_queue(wl.admission.cluster_queue)
        if cqn is None:
            continue
        info = AdmittedWorkload(wl, cqn.name, cluster, snap.options)
        if all(v <= cq_available(cqn, fr) for fr, v in info.usage.items()):
            snap.add_workload(info)
            kept.append(d)
    return base + kept
