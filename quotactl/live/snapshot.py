"""A cluster read once: the objects as a ``kind: List`` document, rendered deterministically
(keys sorted, objects in a fixed order), so ``quotactl snapshot`` writes the same bytes for the
same cluster and a replay of the file gives the same answers as the live run."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field

from quotactl.live.client import Connection, Target
from quotactl.live.discovery import Discovery
from quotactl.live.fetch import Progress, Scope, fetch
from quotactl.live.resources import (
    KUEUE_GROUP,
    kueue_configmaps,
    kueue_wanted,
    tas_wanted,
    uses_topology,
    yunikorn_configmaps,
    yunikorn_wanted,
)
from quotactl.model.gc_pause import fewer_gc_pauses

SCHEDULERS = ("auto", "kueue", "yunikorn")
SOURCE_ANNOTATION = "quotactl.io/source"
SKIPPED_ANNOTATION = "quotactl.io/skipped"


@dataclass(frozen=True)
class Request:
    """What to read: the cluster, the namespaces of namespaced lists, the scheduler and the
    namespace it runs in (for its ConfigMaps)."""

    target: Target = field(default_factory=Target)
    scope: Scope = field(default_factory=Scope)
    scheduler: str = "auto"
    system_namespace: str | None = None


@dataclass(frozen=True)
class ClusterSnapshot:
    name: str  # "cluster:<context>", the file name in messages
    scheduler: str
    document: dict
    skipped: tuple[str, ...]

    def render(self, fmt: str) -> str:
        return render_json(self.document) if fmt == "json" else render_yaml(self.document)


def read_cluster(request: Request, progress: Progress | None = None) -> ClusterSnapshot:
    """Everything quotactl uses from the cluster; raises LiveError when it cannot be read.
    Nodes and Pods (thousands of pages on a big cluster) only when topology-aware scheduling needs them."""
    conn = Connection(request.target)
    discovery = Discovery(conn)
    scheduler = request.scheduler
    if scheduler == "auto":
        scheduler = "kueue" if discovery.serves_group(KUEUE_GROUP) else "yunikorn"
    if scheduler == "kueue":
        wanted, configmaps = kueue_wanted(), kueue_configmaps(request.system_namespace)
    else:
        wanted, configmaps = yunikorn_wanted(), yunikorn_configmaps(request.system_namespace)
    with fewer_gc_pauses():  # a big cluster: 100,000s of fresh dicts, no cycles
        fetched = fetch(conn, discovery, wanted, configmaps, request.scope, progress)
        if scheduler == "kueue" and uses_topology(fetched.objects):
            fetch(conn, discovery, tas_wanted(), [], request.scope, progress, into=fetched)
    name = f"cluster:{conn.context}"
    annotations = {SOURCE_ANNOTATION: name}
    if fetched.skipped:
        annotations[SKIPPED_ANNOTATION] = "; ".join(fetched.skipped)
    document = {"apiVersion": "v1", "kind": "List", "metadata": {"annotations": annotations},
                "items": fetched.objects}
    return ClusterSnapshot(name, scheduler, document, tuple(fetched.skipped))


def render_json(document: dict) -> str:
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def render_yaml(document: dict) -> str:
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.allow_unicode = True
    yaml.width = 4096  # long strings on one line: a diff of two snapshots stays readable
    buf = io.StringIO()
    yaml.dump(_sorted(document), buf)
    return buf.getvalue()


def _sorted(value):
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value
