"""Regenerate tests/live/data/kueue.json and yunikorn.json: what an API server serving the bundled
fixtures answers (Kueue: fixtures/cluster and two Jobs; YuniKorn: fixtures/yunikorn/clean), in
the shapes a real one uses (list items without kind/apiVersion, managedFields present, the
Kueue manager Configuration in its ConfigMap).

Run from the repository root: python tests/live/record.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from quotactl.load.objects import load  # noqa: E402

CORE = [
    ("", "v1", "namespaces", "Namespace", False),
    ("", "v1", "pods", "Pod", True),
    ("", "v1", "nodes", "Node", False),
    ("", "v1", "configmaps", "ConfigMap", True),
    ("", "v1", "limitranges", "LimitRange", True),
    ("scheduling.k8s.io", "v1", "priorityclasses", "PriorityClass", False),
]
# (group, version, plural, kind, namespaced) of what the fake server serves.
KUEUE = CORE + [
    ("kueue.x-k8s.io", "v1beta2", "resourceflavors", "ResourceFlavor", False),
    ("kueue.x-k8s.io", "v1beta2", "cohorts", "Cohort", False),
    ("kueue.x-k8s.io", "v1beta2", "clusterqueues", "ClusterQueue", False),
    ("kueue.x-k8s.io", "v1beta2", "localqueues", "LocalQueue", True),
    ("kueue.x-k8s.io", "v1beta2", "workloadpriorityclasses", "WorkloadPriorityClass", False),
    ("kueue.x-k8s.io", "v1beta2", "workloads", "Workload", True),
    ("batch", "v1", "jobs", "Job", True),
]
# Served as well, with the same kinds: a client must prefer v1beta2.
OLDER = [("kueue.x-k8s.io", "v1beta1")]
MANAGED = [{"manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "v1"}]
LABELLED_POD = {"metadata": {"name": "notebook-1", "namespace": "ml", "labels": {"kueue.x-k8s.io/queue-name": "training"}},
                "spec": {"containers": [{"name": "c", "image": "jupyter",
                                         "resources": {"requests": {"cpu": "1"}}}]}}
UNLABELLED_POD = {"metadata": {"name": "web-0", "namespace": "team-a"},
                  "spec": {"containers": [{"name": "c", "image": "nginx"}]}}


def base(group: str, version: str) -> str:
    return f"/apis/{group}/{version}" if group else f"/api/{version}"


def discovery(resources: list, older: list) -> dict:
    groups = {}
    for group, version, *_ in resources:
        if group:
            groups.setdefault(group, [version])
    for group, version in older:
        groups[group].append(version)
    out = {"/apis": {"kind": "APIGroupList", "apiVersion": "v1", "groups": [
        {"name": g, "versions": [{"groupVersion": f"{g}/{v}", "version": v} for v in vs],
         "preferredVersion": {"groupVersion": f"{g}/{vs[0]}", "version": vs[0]}} for g, vs in sorted(groups.items())]}}
    versions = {(g, v) for g, v, *_ in resources} | set(older)
    for group, version in sorted(versions):
        served = [(p, k, n) for g, v, p, k, n in resources if g == group]
        out[base(group, version)] = {
            "kind": "APIResourceList", "groupVersion": f"{group}/{version}" if group else version,
            "resources": [{"name": p, "kind": k, "namespaced": n, "verbs": ["get", "list", "watch"]}
                          for p, k, n in served] + [{"name": f"{p}/status", "kind": k, "namespaced": n,
                                                     "verbs": ["get"]} for p, k, n in served]}
    return out


def lists(files: list[str], resources: list) -> dict[str, list]:
    """The list answer of every resource: the fixtures' objects as list items."""
    loaded = load(files)
    out: dict[str, list] = {}
    for group, version, plural, kind, _ in resources:
        items = []
        for o in loaded.objects:
            if o.kind == kind and o.group == group:
                item = {k: v for k, v in o.data.items() if k not in ("apiVersion", "kind")}
                item["metadata"] = {**item.get("metadata", {}), "managedFields": MANAGED}
                items.append(item)
        out[f"{base(group, version)}/{plural}"] = items
    return out


def kueue() -> dict:
    cluster = ROOT / "fixtures" / "cluster"
    files = sorted(str(p) for p in cluster.glob("*.yaml") if p.name != "kueue-config.yaml")
    served = lists(files + [str(ROOT / "fixtures" / "jobs" / "my-job.yaml")], KUEUE)
    served["/api/v1/pods"] += [LABELLED_POD, UNLABELLED_POD]
    configmap = {"apiVersion": "v1", "kind": "ConfigMap",
                 "metadata": {"name": "kueue-manager-config", "namespace": "kueue-system", "managedFields": MANAGED},
                 "data": {"controller_manager_config.yaml": (cluster / "kueue-config.yaml").read_text()}}
    return {"discovery": discovery(KUEUE, OLDER), "lists": served,
            "objects": {"/api/v1/namespaces/kueue-system/configmaps/kueue-manager-config": configmap}}


def yunikorn() -> dict:
    clean = ROOT / "fixtures" / "yunikorn" / "clean"
    served = lists([str(clean / "state.yaml")], CORE)
    configmap = load([str(clean / "configmap.yaml")]).objects[0].data
    return {"discovery": discovery(CORE, []), "lists": served,
            "objects": {"/api/v1/namespaces/yunikorn/configmaps/yunikorn-configs": configmap}}


def main() -> None:
    for name, data in (("kueue", kueue()), ("yunikorn", yunikorn())):
        out = Path(__file__).parent / "data" / f"{name}.json"
        out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
