"""Build a YuniKorn cluster from YAML text, as the CLI does (loader -> shim)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from quotactl.cli.yunikorn_cmds import build
from quotactl.load.objects import load
from quotactl.yunikorn.cluster import Cluster

NODE = """\
apiVersion: v1
kind: Node
metadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}}}}}
spec: {{}}
status:
  allocatable: {alloc}
"""

POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: {ns}
  uid: uid-{name}
  creationTimestamp: '2026-07-01T12:{minute:02d}:00Z'
  labels: {{applicationId: {app}, queue: {queue}}}
spec:
  schedulerName: yunikorn
  priority: {priority}
  {node}
  containers:
  - name: main
    resources: {{requests: {requests}}}
status: {{phase: {phase}}}
"""


def node(name: str, alloc: str) -> str:
    return NODE.format(name=name, alloc=alloc)


def pod(name: str, queue: str, requests: str, *, node: str | None = None, priority: int = 0, minute: int = 0,
        app: str | None = None, ns: str = "default") -> str:
    return POD.format(name=name, ns=ns, minute=minute, app=app or f"app-{name}", queue=queue, priority=priority,
                      node=f"nodeName: {node}" if node else "", requests=requests,
                      phase="Running" if node else "Pending")


def cluster_from(tmp_path: Path, queues_yaml: str | None, *docs: str) -> Cluster:
    paths = []
    if queues_yaml is not None:
        q = tmp_path / "queues.yaml"
        q.write_text(textwrap.dedent(queues_yaml))
        paths.append(str(q))
    s = tmp_path / "state.yaml"
    s.write_text("---\n".join(textwrap.dedent(d) for d in docs))
    paths.append(str(s))
    built = build(load(paths, fast_json=True))
    assert built.cluster is not None, built.error
    return built.cluster
