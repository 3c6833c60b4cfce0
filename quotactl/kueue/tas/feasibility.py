"""Which nodes a pod set may use, and why the others are excluded (Kueue's default scheduling
simulator, ``pkg/cache/scheduler/scheduling_simulator_default.go`` ``FindFeasibleNodes``, and the
exclusion statistics of ``tas_flavor_snapshot.go``): untolerated NoSchedule/NoExecute taints, the
nodeSelector, required node affinity, and the preferred terms' score."""

from __future__ import annotations

from dataclasses import dataclass, field

from quotactl.model.podspec import NodeSelectorTerm, PodSpecInfo, Taint, Toleration


def taint_text(t: Taint) -> str:
    """core/v1 ``Taint.ToString``."""
    key, value, effect = t.key or "", t.value or "", t.effect or ""
    if not effect:
        return key if not value else f"{key}={value}:"
    return f"{key}:{effect}" if not value else f"{key}={value}:{effect}"


@dataclass
class ExclusionStats:
    """``tasExclusionStats``: nodes looked at, and those excluded by cause."""

    total_nodes: int = 0
    node_selector: int = 0
    affinity: int = 0
    topology_domain: int = 0
    taints: dict[str, int] = field(default_factory=dict)
    resources: dict[str, int] = field(default_factory=dict)

    def has_exclusions(self) -> bool:
        return bool(self.node_selector or self.affinity or self.taints or self.topology_domain or self.resources)

    def reasons(self) -> list[str]:
        """``formatReasons``: every cause with its count, sorted as text."""
        counted = (("nodeSelector", self.node_selector), ("affinity", self.affinity),
                   ("topologyDomain", self.topology_domain))
        out = [f"{name}: {n}" for name, n in counted if n]
        out += [f'taint "{k}": {v}' for k, v in self.taints.items()]
        out += [f'resource "{k}": {v}' for k, v in self.resources.items()]
        return sorted(out)

    def add(self, other: ExclusionStats) -> None:
        self.total_nodes += other.total_nodes
        self.node_selector += other.node_selector
        self.affinity += other.affinity
        self.topology_domain += other.topology_domain
        for into, more in ((self.taints, other.taints), (self.resources, other.resources)):
            for k, v in more.items():
                into[k] = into.get(k, 0) + v

    def suffix(self) -> str:
        """What Kueue appends to a not-fit message when some node was excluded."""
        if not self.has_exclusions():
            return ""
        return f". Total nodes: {self.total_nodes}; excluded: {', '.join(self.reasons())}"


def _term_matches(term: NodeSelectorTerm, labels: dict[str, str]) -> bool:
    # a term without requirements matches no node (component-helpers nodeaffinity)
    return bool(term.match_expressions) and term.matches(labels)


@dataclass(frozen=True)
class NodeRequirements:
    """``simulator.PodRequirements``: what a pod set asks of a node."""

    tolerations: tuple[Toleration, ...]
    node_selector: dict[str, str] | None  # None: every node (the lowest level is not the hostname)
    required_affinity: tuple[NodeSelectorTerm, ...]
    preferred: tuple[tuple[int, NodeSelectorTerm], ...]

    @classmethod
    def of(cls, pod: PodSpecInfo, flavor_tolerations: tuple[Toleration, ...], per_node: bool,
           preferred: bool) -> NodeRequirements:
        return cls(tuple(pod.tolerations) + tuple(flavor_tolerations), dict(pod.node_selector) if per_node else None,
                   pod.required_affinity, pod.preferred_affinity if preferred else ())

    def key(self) -> tuple:
        """What decides which nodes match (hashable)."""
        selector = tuple(sorted(self.node_selector.items())) if self.node_selector is not None else None
        return self.tolerations, selector, self.required_affinity, self.preferred

    def untolerated(self, taints: tuple[Taint, ...]) -> Taint | None:
        """``FindMatchingUntoleratedTaint`` over the scheduling taints (NoSchedule, NoExecute)."""
        for t in taints:
            if t.effect not in ("NoSchedule", "NoExecute"):
                continue
            if not any(tol.tolerates(t) for tol in self.tolerations):
                return t
        return None

    def score(self, labels: dict[str, str]) -> int:
        return sum(w for w, term in self.preferred if _term_matches(term, labels))


def feasible_leaves(leaves, req: NodeRequirements, stats: ExclusionStats) -> list:
    """(leaf, affinity score) of every leaf whose node the pod set may use, in the leaves' order;
    the others counted in ``stats`` by their first failing check."""
    out = []
    for leaf in leaves:
        stats.total_nodes += 1
        node = leaf.node
        if node is None:
            out.append((leaf, 0))
            continue
        taint = req.untolerated(node.taints)
        if taint is not None:
            text = taint_text(taint)
            stats.taints[text] = stats.taints.get(text, 0) + 1
            continue
        labels = node.labels
        if req.node_selector is not None and any(labels.get(k) != v or k not in labels
                                                 for k, v in req.node_selector.items()):
            stats.node_selector += 1
            continue
        if req.required_affinity and not any(_term_matches(t, labels) for t in req.required_affinity):
            stats.affinity += 1
            continue
        out.append((leaf, req.score(labels)))
    return out
