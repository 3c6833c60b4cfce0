"""Build only the part of the model that can influence one workload's explanation.

A workload's assignment, its preemption candidates (classical and fair sharing) and the quota
holders all live in the cohort tree of its ClusterQueue: workloads admitted in other trees
cannot change any number Kueue looks at.  For a 50,000-workload snapshot, modelling only that
tree's admitted workloads keeps ``explain`` fast; the answer is identical to the full build.
"""

from __future__ import annotations

from quotactl.load.objects import KubeObject
from quotactl.model.kueue import KueueCluster, WorkloadRoute, workload_route
from quotactl.model.kueue_input import KueueInput


def _root(cluster: KueueCluster, cohort: str | None) -> str | None:
    seen = set()
    while cohort and cohort not in seen:
        seen.add(cohort)
        spec = cluster.cohorts.get(cohort)
        if spec is None or not spec.parent:
            return cohort
        cohort = spec.parent
    return cohort  # a cycle: any member names the tree


def tree_cluster_queues(cluster: KueueCluster, cq_name: str) -> set[str]:
    """Every ClusterQueue in the same cohort tree as ``cq_name`` (itself when it has no cohort)."""
    cq = cluster.cluster_queues.get(cq_name)
    if cq is None or not cq.cohort:
        return {cq_name}
    root = _root(cluster, cq.cohort)
    return {n for n, c in cluster.cluster_queues.items() if c.cohort and _root(cluster, c.cohort) == root} | {cq_name}


def scoped_cluster(model: KueueInput, query: str) -> KueueCluster | None:
    """The model with every non-Workload object and only the Workloads that matter for ``query``
    (the workload itself, those admitted in its cohort tree and those queued to it, and those holding
    topology assignments anywhere).  None when ``query`` does not
    name exactly one workload (callers then take the full model, ``model.cluster()``, e.g. to suggest names)."""
    workloads: list[tuple[KubeObject, WorkloadRoute]] = []
    unnamed: list[KubeObject] = []  # modelled, but no one can look them up
    for o in model.objects:
        if o.kind != "Workload":
            continue
        route = workload_route(o)
        if route is None:
            unnamed.append(o)
        else:
            workloads.append((o, route))
    hits = [(o, r) for o, r in workloads if (r.key == query if "/" in query else r.name == query)]
    if len({r.key for _o, r in hits}) != 1:
        return None
    target, target_route = hits[0]
    configuration = model.configuration
    cq_name = target_route.reserved_cluster_queue
    if cq_name is None:
        lq = configuration.local_queues.get((target.namespace or "default", target_route.queue_name or ""))
        cq_name = lq.cluster_queue if lq is not None else None
    tree = tree_cluster_queues(configuration, cq_name) if cq_name else set()
    # LocalQueues feeding the tree: their pending workloads decide the queue order.
    feeding = {key for key, lq in configuration.local_queues.items() if lq.cluster_queue in tree}
    # Workloads holding topology assignments in any tree: the TAS flavors' nodes are shared.
    return model.with_workloads(unnamed + [
        obj for obj, route in workloads
        if obj is target or route.admitted_cluster_queue in tree or (obj.namespace or "default", route.queue_name) in feeding
        or (route.holds_topology and route.reserved_cluster_queue is not None)])
