"""Generators of the big inputs of ``any_size.py`` (each writes files and returns their paths).

* ``flavors``: N ResourceFlavors, one YAML document each (120,000: about 20 MB);
* ``kueue_snapshot``: the explain benchmark's cluster with N workloads, as one ``kind: List``
  in YAML and in JSON (100,000 workloads: about 64 MB of YAML);
* ``yunikorn_cluster``: a queues.yaml with P parents x L leaves and a ``kubectl get nodes,pods -o
  json`` List with N nodes and M running pods spread over the leaves, plus one pending ask.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def flavors(directory: Path, n: int) -> Path:
    path = directory / f"flavors-{n}.yaml"
    with open(path, "w") as fh:
        for i in range(n):
            fh.write(f"---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n"
                     f"  name: flavor-{i:06d}\n  labels:\n    team: t{i % 50}\nspec:\n  nodeLabels:\n"
                     f"    cloud.example.com/pool: pool-{i % 100}\n")
    return path


def kueue_snapshot(directory: Path, workloads: int, cqs: int = 1000, cohorts: int = 100) -> tuple[Path, Path, str]:
    """(yaml path, json path, the workload to explain)."""
    from explain_large_snapshot import generate
    from ruamel.yaml import YAML

    doc, target = generate(cqs, cohorts, workloads)
    jpath = directory / f"snapshot-{workloads}.json"
    jpath.write_text(json.dumps(doc, indent=1))
    ypath = directory / f"snapshot-{workloads}.yaml"
    yaml = YAML(typ="safe", pure=False)
    yaml.default_flow_style = False
    with open(ypath, "w") as fh:
        yaml.dump(doc, fh)
    return ypath, jpath, target


def yunikorn_cluster(directory: Path, nodes: int, parents: int, leaves: int, pods: int) -> tuple[Path, Path]:
    """(queues.yaml, state.json); the pending pod is ``batch/ask`` in the first leaf."""
    lines = ["partitions:", "- name: default", "  queues:", "  - name: root", "    submitacl: '*'", "    queues:"]
    for p in range(parents):
        lines += [f"    - name: p{p}", "      resources: {guaranteed: {vcore: 64}}", "      queues:"]
        for leaf in range(leaves):
            lines += [f"      - name: l{leaf}", "        resources: {guaranteed: {vcore: 1}}"]
    qpath = directory / "queues.yaml"
    qpath.write_text("\n".join(lines) + "\n")
    items: list[dict] = []
    for i in range(nodes):
        alloc = {"cpu": str(pods // nodes + 1), "memory": "256Gi", "pods": "110"}
        items.append({"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"node-{i}"},
                      "status": {"allocatable": alloc, "capacity": alloc}})
    for j in range(pods):
        p, leaf = j % parents, (j // parents) % leaves
        items.append({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": f"p-{j}", "namespace": "batch", "uid": f"u-{j}",
                         "creationTimestamp": f"2026-07-01T{j // 3600 % 24:02d}:{j // 60 % 60:02d}:{j % 60:02d}Z",
                         "labels": {"applicationId": f"app-{j % 2000}", "queue": f"root.p{p}.l{leaf}"}},
            "spec": {"schedulerName": "yunikorn", "priority": 0, "nodeName": f"node-{j % nodes}",
                     "containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]},
            "status": {"phase": "Running"}})
    items.append({"apiVersion": "v1", "kind": "Pod",
                  "metadata": {"name": "ask", "namespace": "batch", "uid": "ask",
                               "creationTimestamp": "2026-07-02T00:00:00Z",
                               "labels": {"applicationId": "app-ask", "queue": "root.p0.l0"}},
                  "spec": {"schedulerName": "yunikorn", "priority": 10,
                           "containers": [{"name": "c", "resources": {"requests": {"cpu": "4", "memory": "1Gi"}}}]},
                  "status": {"phase": "Pending"}})
    spath = directory / "state.json"
    spath.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=1))
    return qpath, spath
