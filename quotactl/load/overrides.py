"""The same object given twice: the later one wins, as after ``kubectl apply -f a -f b``.

An object's identity is what the API server keys it by: API group, kind, namespace (for a
namespaced kind; ``default`` when not given, where ``kubectl apply`` puts it) and name. The
version is not part of it: a v1beta1 and a v1beta2 ClusterQueue of one name are one object. A
scheduler reads one configuration file (Kueue's Configuration, YuniKorn's queues.yaml, both
without a name): a later one replaces it too. Other objects without a name have no identity
and are all kept.

Every engine command reads its input through ``latest`` (files after the cluster read with
--from-cluster, each file in command-line order, documents in file order), so a what-if file
given last replaces the snapshot's object where it stood. ``lint`` keeps every object: a duplicate is its
finding (KQ504).
"""

from __future__ import annotations

from dataclasses import dataclass

from quotactl.load.object_ids import CLUSTER_SCOPED_KINDS
from quotactl.load.objects import KubeObject

# One per scheduler, whatever its name: Kueue's manager Configuration, a bare YuniKorn queues.yaml.
SINGLETON_KINDS = frozenset({"Configuration", "SchedulerConfig"})


@dataclass(frozen=True, slots=True)
class Override:
    """``replaced`` is left out of the input because ``kept``, given later, is the same object."""

    kept: KubeObject
    replaced: KubeObject

    def warning(self) -> str:
        """``file:line: warning: Kind/ns/name is also at file:line; the later one is used (...)``."""
        pos, old = self.kept.ref.pos(), self.replaced.ref.pos()
        return (f"{self.kept.ref.file}:{pos.line}: warning: {self.kept.label} is also at "
                f"{self.replaced.ref.file}:{old.line}; this later one is used (as after kubectl apply -f ... -f ...)")


def object_key(obj: KubeObject) -> tuple | None:
    """What the API server identifies ``obj`` by; None when it has no name (no identity)."""
    kind = obj.kind
    group = obj.api_version.rpartition("/")[0]  # ``obj.group``
    if kind in SINGLETON_KINDS:
        return group, kind
    metadata = obj.data.get("metadata")  # ``obj.name`` and ``obj.namespace``, the metadata read once
    metadata = metadata if isinstance(metadata, dict) else {}
    name = metadata.get("name")
    if name is None:
        return None
    if not isinstance(name, str):
        name = str(name)
    if kind in CLUSTER_SCOPED_KINDS:
        return group, kind, None, name
    namespace = metadata.get("namespace")
    return group, kind, (namespace if isinstance(namespace, str) else None) or "default", name


def latest(objects: list[KubeObject]) -> tuple[list[KubeObject], list[Override]]:
    """``objects`` with each identity once: the last object given, in the place of the first
    (the object is updated where it stands, so the order the engines see does not change), and
    what was replaced, in input order."""
    slot: dict[tuple, int] = {}  # identity -> its place in the result
    kept: list[KubeObject] = []
    overrides: list[Override] = []
    for obj in objects:
        key = object_key(obj)
        if key is None:
            kept.append(obj)
        elif key in slot:
            overrides.append(Override(obj, kept[slot[key]]))
            kept[slot[key]] = obj
        else:
            slot[key] = len(kept)
            kept.append(obj)
    return (objects, []) if not overrides else (kept, overrides)
