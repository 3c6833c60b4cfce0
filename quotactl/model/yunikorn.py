"""The YuniKorn scheduler configuration as typed, immutable objects.

The shape follows ``pkg/common/configs/config.go`` field for field (lower-case YAML keys), and keeps
Go's distinctions the validator depends on: ``None`` is a nil map / slice / pointer (key absent
or ``null``), ``{}`` / ``()`` an empty but present one.  Every object knows ``path``: where it sits
in the queues document (``("partitions", 0, "queues", 0, "queues", 2)``), which is how findings
get back to a file, line and column, even inside a ConfigMap.

Nothing here parses YAML (see ``quotactl.load.yunikorn``) or applies scheduler semantics (see
``quotactl.yunikorn``); only the structural facts YuniKorn applies while loading: partition name
normalisation and the implicit ``root`` queue.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

Path = tuple  # tuple[str | int, ...]

DEFAULT_PARTITION = "default"
ROOT = "root"


def go_list(values: tuple[str, ...] | None) -> str:
    """Go's ``%v`` of a ``[]string``: ``[a b]``."""
    return "[" + " ".join(values or ()) + "]"


def go_string_map(values: dict[str, str] | None) -> str:
    """Go's ``%v`` of a ``map[string]string``: ``map[k:v]``, keys sorted."""
    return "map[" + " ".join(f"{k}:{values[k]}" for k in sorted(values or {})) + "]"


@dataclass(frozen=True)
class Resources:
    guaranteed: dict[str, str] | None = None
    max: dict[str, str] | None = None
    path: Path = ()


@dataclass(frozen=True)
class Limit:
    limit: str = ""
    users: tuple[str, ...] | None = None
    groups: tuple[str, ...] | None = None
    maxresources: dict[str, str] | None = None
    maxapplications: int = 0
    path: Path = ()

    def go_struct(self) -> str:
        """Go's ``%v`` of the struct, as printed in ``empty user and group lists defined in limit '...'``."""
        return (f"{{{self.limit} {go_list(self.users)} {go_list(self.groups)} "
                f"{go_string_map(self.maxresources)} {self.maxapplications}}}")

    def value_key(self) -> tuple:
        """Everything but the position: what ``reflect.DeepEqual`` compares (nil != empty)."""
        res = None if self.maxresources is None else tuple(sorted(self.maxresources.items()))
        return (self.limit, self.users, self.groups, res, self.maxapplications)


@dataclass(frozen=True)
class ChildTemplate:
    maxapplications: int = 0
    properties: dict[str, str] | None = None
    resources: Resources = Resources()
    path: Path = ()
    present: bool = False  # the key is written (even as {})

    @property
    def is_empty(self) -> bool:
        return not (self.maxapplications or self.properties or self.resources.guaranteed or self.resources.max)


@dataclass(frozen=True)
class QueueConfig:
    name: str = ""
    parent: bool = False  # the explicit flag as written (root is forced to a parent by the loader)
    resources: Resources = Resources()
    maxapplications: int = 0
    properties: dict[str, str] | None = None
    adminacl: str = ""
    submitacl: str = ""
    childtemplate: ChildTemplate = ChildTemplate()
    queues: tuple[QueueConfig, ...] | None = None
    limits: tuple[Limit, ...] | None = None
    path: Path = ()
    keys: frozenset[str] = frozenset()  # keys written in the YAML
    inserted: bool = False  # the implicit root YuniKorn inserts above several top-level queues

    @property
    def children(self) -> tuple[QueueConfig, ...]:
        return self.queues or ()

    @property
    def is_leaf(self) -> bool:
        """YuniKorn's queue type: a parent if it has children or says ``parent: true``."""
        return not self.children and not self.parent

    def has(self, key: str) -> bool:
        return key in self.keys


@dataclass(frozen=True)
class Filter:
    type: str = ""
    users: tuple[str, ...] | None = None
    groups: tuple[str, ...] | None = None
    path: Path = ()


@dataclass(frozen=True)
class PlacementRule:
    name: str = ""
    create: bool = False
    filter: Filter = Filter()
    parent: PlacementRule | None = None
    value: str = ""
    path: Path = ()
    keys: frozenset[str] = frozenset()

    def chain(self) -> list[PlacementRule]:
        """``getRuleChain``: the outermost parent first, this rule last."""
        out: list[PlacementRule] = []
        cur: PlacementRule | None = self
        while cur is not None:
            out.append(cur)
            cur = cur.parent
        return out[::-1]


@dataclass(frozen=True)
class NodeSortingPolicy:
    type: str = ""
    resourceweights: dict[str, float] | None = None
    path: Path = ()


@dataclass(frozen=True)
class PartitionPreemption:
    enabled: bool | None = None  # nil = default true
    quotapreemptionenabled: bool | None = None  # nil = default false
    path: Path = ()

    @property
    def enabled_effective(self) -> bool:
        return True if self.enabled is None else self.enabled

    @property
    def quota_preemption_effective(self) -> bool:
        return bool(self.quotapreemptionenabled)


@dataclass(frozen=True)
class PartitionConfig:
    name: str = ""
    queues: tuple[QueueConfig, ...] | None = None
    placementrules: tuple[PlacementRule, ...] | None = None
    limits: tuple[Limit, ...] | None = None
    preemption: PartitionPreemption = PartitionPreemption()
    nodesortpolicy: NodeSortingPolicy = NodeSortingPolicy()
    usergroupresolver: str = ""
    path: Path = ()
    keys: frozenset[str] = frozenset()
    index: int = 0

    @property
    def normalized_name(self) -> str:
        """Empty or any case of ``default`` -> ``default``; other names as written."""
        return DEFAULT_PARTITION if not self.name or self.name.lower() == DEFAULT_PARTITION else self.name

    def root(self) -> QueueConfig:
        """The root queue as YuniKorn builds it (``checkQueuesStructure``): the single top queue when
        it is called root (any case), forced to a parent; otherwise an inserted ``root`` above the
        whole top-level list."""
        top = self.queues or ()
        if len(top) == 1 and top[0].name.lower() == ROOT:
            return replace(top[0], parent=True)
        return QueueConfig(name=ROOT, parent=True, queues=tuple(top), path=self.path + ("queues",), inserted=True)

    @property
    def rules(self) -> tuple[PlacementRule, ...]:
        return self.placementrules or ()


@dataclass(frozen=True)
class SchedulerConfig:
    partitions: tuple[PartitionConfig, ...] = ()
    checksum: str = ""
    keys: frozenset[str] = frozenset()


# --------------------------------------------------------------------------- walking ----------

@dataclass(frozen=True)
class QueueRef:
    """A queue in its tree: the configured object, its dotted path and its ancestors (root first)."""

    queue: QueueConfig
    names: tuple[str, ...]  # ("root", "team", "dev")
    partition: PartitionConfig
    ancestors: tuple[QueueConfig, ...] = field(default=(), compare=False)

    @property
    def dotted(self) -> str:
        return ".".join(self.names)

    @property
    def parent(self) -> QueueConfig | None:
        return self.ancestors[-1] if self.ancestors else None

    @property
    def level(self) -> int:
        return len(self.names) - 1

    @property
    def is_root(self) -> bool:
        return not self.ancestors


def queue_object(partition: PartitionConfig, names: tuple[str, ...] | list[str]) -> str:
    """The lint ``object`` of a queue: ``queue/root.a.b``, ``queue/<partition>/root.a`` outside default."""
    dotted = ".".join(names)
    part = partition.normalized_name
    return f"queue/{dotted}" if part == DEFAULT_PARTITION else f"queue/{part}/{dotted}"


def partition_object(partition: PartitionConfig) -> str:
    return f"partition/{partition.normalized_name}"


def rule_object(partition: PartitionConfig, index: int) -> str:
    part = partition.normalized_name
    return f"placementrule/{index}" if part == DEFAULT_PARTITION else f"placementrule/{part}/{index}"


def walk_queues(partition: PartitionConfig) -> Iterator[QueueRef]:
    """Every queue of the partition, depth-first pre-order, starting with (the effective) root."""
    root = partition.root()
    stack: list[tuple[QueueConfig, tuple[str, ...], tuple[QueueConfig, ...]]] = [(root, (ROOT,), ())]
    while stack:
        q, names, ancestors = stack.pop()
        yield QueueRef(q, names, partition, ancestors)
        for child in reversed(q.children):
            stack.append((child, names + (child.name,), ancestors + (q,)))


def object_for_path(config: SchedulerConfig, path: Path) -> str:
    """The lint ``object`` owning a document path: the innermost queue, placement rule or partition
    on it; ``config`` at the top level."""
    if len(path) < 2 or path[0] != "partitions" or not isinstance(path[1], int):
        return "config"
    index = path[1]
    if index >= len(config.partitions):
        return "config"
    partition = config.partitions[index]
    rest = path[2:]
    if len(rest) >= 2 and rest[0] == "placementrules" and isinstance(rest[1], int):
        return rule_object(partition, rest[1])
    if len(rest) >= 2 and rest[0] == "queues" and isinstance(rest[1], int):
        top = partition.queues or ()
        inserted = not (len(top) == 1 and top[0].name.lower() == ROOT)
        names = [ROOT]
        level = list(top)
        i = 0
        first = True
        while i + 1 < len(rest) and rest[i] == "queues" and isinstance(rest[i + 1], int):
            idx = rest[i + 1]
            if idx >= len(level):
                break
            q = level[idx]
            if not (first and not inserted):
                names.append(q.name)
            first = False
            level = list(q.children)
            i += 2
        return queue_object(partition, names)
    return partition_object(partition)
