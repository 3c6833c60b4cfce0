"""Kueue's scheduler-performance generator config -> the objects and timed Workloads its runner creates.

The format is Kueue's ``test/performance/scheduler/configs/*/generator.yaml``, read by
``runner/generator/generator.go`` (``Config``, ``CohortSet``, ``QueuesSet``, ``WorkloadsSet``,
``WorkloadTemplate``; ``LoadConfig``). What it creates, and when, follows ``Generate``:

- one ResourceFlavor (``resourceFlavor.name``, default ``rf``; ``generateResourceFlavor``);
- per cohort set, ``count`` cohorts named ``<className>-<i>``. No Cohort object is created: the
  cohort exists only through ``spec.cohortName`` of its ClusterQueues, as in the harness;
- per cohort and queue set, ``count`` ClusterQueues ``<className>-<queueSetIndex>-<i>-<cohort>``,
  each followed by a Namespace and a LocalQueue of the same name (``generateQueue``);
- per queue and workloads set, one sender that, ``count`` times, for each template, waits
  ``creationIntervalMs`` and then creates Workload ``<className>-<setIndex>-<round>-<templateIndex>``
  (``generateWlSet``). Every sender starts at t0, so the k-th Workload of a set (0-based) arrives
  at ``(k + 1) * creationIntervalMs``. The API client's own latency is not modelled.

Each Workload carries the harness's labels (running time in ms, class) plus quotactl's
``quotactl.io/class`` label and ``quotactl.io/runtime`` annotation, which ``simulate`` reads.

With ``topology`` and ``resourceFlavor.topologyName`` (Kueue's TAS config) it also builds the
Nodes, the Topology and the Workloads' pod sets with topology requests: ``generator_tas.py``.

The upstream loader ignores unknown keys and turns negative counts into nothing; here both are
errors with file:line:column, as are wrong types, missing required fields and configs that would
generate more than ``MAX_WORKLOADS`` Workloads or ``MAX_CLUSTER_QUEUES`` ClusterQueues (refused
before anything is built). The YAML is read by the project's loader, under its hostile-input limits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from quotactl.diagnostics import Severity
from quotactl.load.document import Document, YamlFloat, format_path
from quotactl.load.sources import collect_sources
from quotactl.load.yamlparse import parse_documents
from quotactl.model.gc_pause import fewer_gc_pauses
from quotactl.model.quantity import Quantity, QuantityError
from quotactl.simulate import generator_tas as tas

KUEUE_API = "kueue.x-k8s.io/v1beta2"
# Labels the harness sets (generator.go: RunningTimeLabel, ClassLabel, CleanupLabel).
RUNNING_TIME_LABEL = "kueue.x-k8s.io/performance-scheduler-running-ms"
CLASS_LABEL = "kueue.x-k8s.io/performance-scheduler-class"
CLEANUP_LABEL = "kueue.x-k8s.io/performance-scheduler-cleanup"
QUOTACTL_CLASS_LABEL = "quotactl.io/class"
QUOTACTL_RUNTIME_ANNOTATION = "quotactl.io/runtime"
DEFAULT_FLAVOR = "rf"  # generator.go: defaultResourceFlavorName

# Far above Kueue's large-scale config (50,000 Workloads, 1,000 ClusterQueues); each generated
# Workload costs a few kB, so these bound memory to a few GB at most.
MAX_WORKLOADS = 1_000_000
MAX_CLUSTER_QUEUES = 100_000

INT64_MAX = 2**63 - 1
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
MAX_MS = INT64_MAX // 1_000_000  # time.Duration(ms) * time.Millisecond must not overflow int64
MAX_NAMESPACE_NAME = 63  # a Namespace name is a DNS-1123 label
MAX_OBJECT_NAME = 253  # a Workload name is a DNS-1123 subdomain
_CLASS_NAME = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?\Z")
RECLAIM_POLICIES = ("Never", "LowerPriority", "Any")  # v1beta2 ClusterQueuePreemption enums
WITHIN_CQ_POLICIES = ("Never", "LowerPriority", "LowerOrNewerEqualPriority")


class GeneratorError(Exception):
    """A generator config that cannot be used, with the position of the offending value."""

    def __init__(self, file: str, line: int, column: int, message: str):
        super().__init__(f"{file}:{line}:{column}: {message}")
        self.file, self.line, self.column, self.message = file, line, column, message


class GeneratedWorkload(NamedTuple):
    # A kueue.x-k8s.io/v1beta2 Workload, without creationTimestamp. Read-only: its labels,
    # annotations and podSets are shared with the other Workloads of its template.
    manifest: dict
    arrival: float  # seconds after t0


@dataclass(frozen=True)
class GeneratedScenario:
    source: str
    # Nodes and Topology (TAS configs), ResourceFlavor, then ClusterQueue, Namespace, LocalQueue per queue
    objects: tuple[dict, ...]
    workloads: tuple[GeneratedWorkload, ...]  # by arrival, then in generation order


# ------------------------------------------------------------------------- typed config ---

@dataclass(frozen=True)
class _Template:
    class_name: str
    runtime_ms: int
    priority: int
    request: str
    tas: tas.TASRequest | None = None  # topology-aware scheduling: pods and topology request


@dataclass(frozen=True)
class _WorkloadsSet:
    count: int
    interval_ms: int
    templates: tuple[_Template, ...]
    path: tuple


@dataclass(frozen=True)
class _QueuesSet:
    class_name: str
    count: int
    nominal_quota: str
    borrowing_limit: str | None
    reclaim_within_cohort: str | None
    within_cluster_queue: str | None
    workloads_sets: tuple[_WorkloadsSet, ...]
    path: tuple


@dataclass(frozen=True)
class _CohortSet:
    class_name: str
    count: int
    queues_sets: tuple[_QueuesSet, ...]
    path: tuple


@dataclass(frozen=True)
class _Config:
    flavor: str
    cohort_sets: tuple[_CohortSet, ...]
    topology: tas.TopologyConfig | None = None


# ------------------------------------------------------------------------------ reading ---

def read_generator(path: str) -> GeneratedScenario:
    """Read and validate a generator config; build what Kueue's runner would create from it."""
    reader = _Reader(_load_document(path))
    config = reader.config()
    _check_size(config, reader)
    _check_names(config, reader)
    with fewer_gc_pauses():  # the manifests hold no cycles: no collector passes while building
        return GeneratedScenario(str(path), tuple(_objects(config)), tuple(_workloads(config)))


def _load_document(path: str) -> Document:
    given = Path(path)
    if not given.exists():
        raise GeneratorError(str(path), 1, 1, "no such file")
    if given.is_dir():
        raise GeneratorError(str(path), 1, 1, "is a directory, not a generator config file")
    sources, diags = collect_sources([str(path)])
    errors = [d for d in diags if d.severity == Severity.ERROR]
    if not errors:
        docs, parse_diags = parse_documents(sources[0].text, sources[0].name)
        errors = [d for d in parse_diags if d.severity == Severity.ERROR]
    if errors:
        first = min(errors, key=lambda d: (d.line, d.column))
        raise GeneratorError(first.file, first.line, first.column, first.message)
    if not docs:
        raise GeneratorError(str(path), 1, 1, "empty file: expected a generator config with 'cohorts'")
    if len(docs) > 1:
        start = docs[1].start
        raise GeneratorError(str(path), start.line, start.column, "more than one YAML document; a generator "
                                                                   "config is one document")
    return docs[0]


# Keys of each mapping: REQ required, OPT optional.
REQ, OPT = "required", "optional"
_TOP_KEYS = {"cohorts": REQ, "resourceFlavor": OPT, "topology": OPT}
_FLAVOR_KEYS = {"name": REQ, "nodeLabel": OPT, "topologyName": OPT}
_COHORT_KEYS = {"className": REQ, "count": REQ, "queuesSets": REQ}
_QUEUE_KEYS = {"className": REQ, "count": REQ, "nominalQuota": REQ, "borrowingLimit": OPT,
               "reclaimWithinCohort": OPT, "withinClusterQueue": OPT, "workloadsSets": REQ}
_SET_KEYS = {"count": REQ, "creationIntervalMs": OPT, "workloads": REQ}
_TEMPLATE_KEYS = {"className": REQ, "runtimeMs": OPT, "priority": OPT, "request": REQ,
                  "podCount": OPT, "tasConstraint": OPT, "tasLevel": OPT, "sliceSize": OPT}


class _Reader:
    """Validates the document's data field by field, raising GeneratorError at the first problem."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.topology: tas.TopologyConfig | None = None  # read before the templates that name its levels

    def fail(self, path: tuple, message: str, *, value: bool = True) -> GeneratorError:
        pos = self.doc.pos(path, value=value)
        return GeneratorError(self.doc.file, pos.line, pos.column, message)

    def get(self, path: tuple):
        cur = self.doc.data
        for part in path:
            cur = cur[part]
        return cur

    def mapping(self, path: tuple, keys: dict[str, str], what: str) -> dict:
        data = self.get(path)
        if not isinstance(data, dict):
            raise self.fail(path, f"{_where(path, what)} must be a mapping, not {_kind(data)}")
        for key in data:
            if key not in keys:
                raise self.fail(path + (key,), f"unknown key {key!r} in {_where(path, what)} "
                                                f"(known: {', '.join(keys)})", value=False)
        for key, need in keys.items():
            if need == REQ and data.get(key) is None:
                raise self.fail(path, f"{_where(path, what)}: missing required field {key!r}", value=False)
        return data

    def sequence(self, path: tuple, *, non_empty: bool) -> list:
        data = self.get(path)
        if not isinstance(data, list):
            raise self.fail(path, f"{format_path(path)} must be a list, not {_kind(data)}")
        if non_empty and not data:
            raise self.fail(path, f"{format_path(path)} must not be empty")
        return data

    def integer(self, path: tuple, low: int, high: int, default: int = 0) -> int:
        value = self.get(path) if self.present(path) else None
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"{format_path(path)} must be an integer, not {_kind(value)}")
        if value < low:
            raise self.fail(path, f"{format_path(path)} must not be negative (got {value})" if low == 0
                            else f"{format_path(path)} must be at least {low} (got {value})")
        if value > high:
            raise self.fail(path, f"{format_path(path)} is {value}, more than the largest allowed ({high:,})")
        return value

    def present(self, path: tuple) -> bool:
        parent = self.get(path[:-1])
        return isinstance(parent, dict) and path[-1] in parent

    def string(self, path: tuple) -> str:
        value = self.get(path)
        if not isinstance(value, str) or not value:
            raise self.fail(path, f"{format_path(path)} must be a non-empty string, not "
                                  f"{'an empty string' if value == '' else _kind(value)}")
        return value

    def class_name(self, path: tuple) -> str:
        value = self.get(path)
        if not isinstance(value, str):
            raise self.fail(path, f"{format_path(path)} must be a string, not {_kind(value)}")
        if not _CLASS_NAME.match(value):
            raise self.fail(path, f"{format_path(path)} {value!r} is not a valid name part (lower-case letters, "
                                  "digits and '-', starting and ending with a letter or digit)")
        return value

    def quantity(self, path: tuple, default: str | None = None) -> str | None:
        value = self.get(path) if self.present(path) else None
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise self.fail(path, f"{format_path(path)} must be a quantity such as 20 or \"500m\", "
                                  f"not {_kind(value)}")
        # sigs.k8s.io/yaml hands a YAML number to a string field as written: keep the text.
        text = value.raw if isinstance(value, YamlFloat) else str(value)
        try:
            parsed = Quantity.parse(text)
        except QuantityError as exc:
            raise self.fail(path, f"{format_path(path)}: {exc}") from None
        if parsed.nanos < 0:
            raise self.fail(path, f"{format_path(path)} must not be negative (got {text})")
        return text

    def choice(self, path: tuple, options: tuple[str, ...]) -> str | None:
        value = self.get(path) if self.present(path) else None
        if value is None or value == "":
            return None  # omitted: the API server defaults it to Never
        if value not in options:
            raise self.fail(path, f"{format_path(path)} must be one of {', '.join(options)}, not {value!r}")
        return value

    # -- the config, level by level ------------------------------------------------------
    def config(self) -> _Config:
        self.mapping((), _TOP_KEYS, "the generator config")
        if self.present(("topology",)) and self.get(("topology",)) is not None:
            self.topology = tas.read_topology(self, ("topology",))
        flavor, flavor_path = DEFAULT_FLAVOR, None
        if self.present(("resourceFlavor",)) and self.get(("resourceFlavor",)) is not None:
            flavor_path = ("resourceFlavor",)
            self.mapping(flavor_path, _FLAVOR_KEYS, "resourceFlavor")
            flavor = self.class_name(("resourceFlavor", "name"))
        tas.check_flavor(self, flavor_path, self.topology)
        items = self.sequence(("cohorts",), non_empty=True)
        return _Config(flavor, tuple(self.cohort_set(("cohorts", i)) for i in range(len(items))), self.topology)

    def cohort_set(self, path: tuple) -> _CohortSet:
        self.mapping(path, _COHORT_KEYS, "cohort set")
        queues = self.sequence(path + ("queuesSets",), non_empty=False)
        return _CohortSet(self.class_name(path + ("className",)), self.integer(path + ("count",), 0, INT64_MAX),
                          tuple(self.queues_set(path + ("queuesSets", i)) for i in range(len(queues))), path)

    def queues_set(self, path: tuple) -> _QueuesSet:
        self.mapping(path, _QUEUE_KEYS, "queues set")
        sets = self.sequence(path + ("workloadsSets",), non_empty=False)
        return _QueuesSet(
            class_name=self.class_name(path + ("className",)),
            count=self.integer(path + ("count",), 0, INT64_MAX),
            nominal_quota=self.quantity(path + ("nominalQuota",)),
            borrowing_limit=self.quantity(path + ("borrowingLimit",)),
            reclaim_within_cohort=self.choice(path + ("reclaimWithinCohort",), RECLAIM_POLICIES),
            within_cluster_queue=self.choice(path + ("withinClusterQueue",), WITHIN_CQ_POLICIES),
            workloads_sets=tuple(self.workloads_set(path + ("workloadsSets", i)) for i in range(len(sets))),
            path=path,
        )

    def workloads_set(self, path: tuple) -> _WorkloadsSet:
        self.mapping(path, _SET_KEYS, "workloads set")
        templates = self.sequence(path + ("workloads",), non_empty=False)
        return _WorkloadsSet(self.integer(path + ("count",), 0, INT64_MAX),
                             self.integer(path + ("creationIntervalMs",), 0, MAX_MS),
                             tuple(self.template(path + ("workloads", i)) for i in range(len(templates))), path)

    def template(self, path: tuple) -> _Template:
        self.mapping(path, _TEMPLATE_KEYS, "workload template")
        # podCount only shapes a TAS pod set upstream (generateWlSet); without tasLevel the
        # harness builds one pod whatever it says, and so do we.
        request = tas.read_request(self, path, self.topology)
        return _Template(self.class_name(path + ("className",)), self.integer(path + ("runtimeMs",), 0, MAX_MS),
                         self.integer(path + ("priority",), INT32_MIN, INT32_MAX), self.quantity(path + ("request",)),
                         request)


def _where(path: tuple, what: str) -> str:
    return f"{what} {format_path(path)}" if path else what


def _kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {dict: "a mapping", list: "a list", str: "a string", int: "an integer"}.get(type(value), "a number")


# ------------------------------------------------------------------------ size and names ---

def _check_size(config: _Config, reader: _Reader) -> None:
    """Refuse, before building anything, a config that would generate too much."""
    queues = workloads = 0
    for cs in config.cohort_sets:
        for qs in cs.queues_sets:
            queues += cs.count * qs.count
            if queues > MAX_CLUSTER_QUEUES:
                raise _too_many(reader, "ClusterQueues", queues, MAX_CLUSTER_QUEUES,
                                [(cs.path, cs.count), (qs.path, qs.count)])
            for ws in qs.workloads_sets:
                workloads += cs.count * qs.count * ws.count * len(ws.templates)
                if workloads > MAX_WORKLOADS:
                    raise _too_many(reader, "Workloads", workloads, MAX_WORKLOADS,
                                    [(cs.path, cs.count), (qs.path, qs.count), (ws.path, ws.count)])


def _too_many(reader: _Reader, what: str, total: int, limit: int, factors: list[tuple[tuple, int]]) -> GeneratorError:
    path, _ = max(factors, key=lambda f: f[1])  # point at the count that blows it up
    chain = " x ".join(f"{format_path(p + ('count',))}={n:,}" for p, n in factors)
    return reader.fail(path + ("count",), f"this config generates at least {total:,} {what} ({chain}), "
                                          f"more than the {limit:,} simulate accepts")


def _check_names(config: _Config, reader: _Reader) -> None:
    """Names the harness would create must be valid and unique (a second Create fails upstream)."""
    for cs in config.cohort_sets:
        for qs in cs.queues_sets:
            _check_workload_names(qs, reader)
    seen: set[str] = set()
    for _, qs, name in _queues(config):
        if len(name) > MAX_NAMESPACE_NAME:
            raise reader.fail(qs.path + ("className",), f"ClusterQueue and Namespace name {name!r} is longer "
                              f"than {MAX_NAMESPACE_NAME} characters; use shorter classNames")
        if name in seen:
            raise reader.fail(qs.path + ("className",), f"ClusterQueue {name!r} would be created twice (two cohort "
                              "sets with the same className); Kueue's generator fails then")
        seen.add(name)


def _check_workload_names(qs: _QueuesSet, reader: _Reader) -> None:
    for si, ws in enumerate(qs.workloads_sets):
        for ti, t in enumerate(ws.templates):
            longest = _workload_name(t.class_name, si, max(ws.count - 1, 0), ti)
            if len(longest) > MAX_OBJECT_NAME:
                raise reader.fail(ws.path + ("workloads", ti, "className"),
                                  f"Workload name {longest!r} is longer than {MAX_OBJECT_NAME} characters")


def _cohort_name(cs: _CohortSet, index: int) -> str:
    return f"{cs.class_name}-{index}"


def _queue_name(qs: _QueuesSet, set_index: int, index: int, cohort: str) -> str:
    return f"{qs.class_name}-{set_index}-{index}-{cohort}"


def _workload_name(class_name: str, set_index: int, round_index: int, template_index: int) -> str:
    return f"{class_name}-{set_index}-{round_index}-{template_index}"


# ---------------------------------------------------------------------------- generation ---

def _queues(config: _Config):
    """(cohort name, queues set, ClusterQueue name) in generation order."""
    for cs in config.cohort_sets:
        for ci in range(cs.count):
            cohort = _cohort_name(cs, ci)
            for qi, qs in enumerate(cs.queues_sets):
                for q in range(qs.count):
                    yield cohort, qs, _queue_name(qs, qi, q, cohort)


def _objects(config: _Config):
    if config.topology is not None:
        yield from tas.topology_objects(config.topology, KUEUE_API, CLEANUP_LABEL)
    yield {"apiVersion": KUEUE_API, "kind": "ResourceFlavor",
           "metadata": {"name": config.flavor, "labels": {CLEANUP_LABEL: "true"}},
           "spec": tas.flavor_spec(config.topology)}
    for cohort, qs, name in _queues(config):
        yield _cluster_queue(name, cohort, qs, config.flavor)
        yield {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": {CLEANUP_LABEL: "true"}}}
        yield {"apiVersion": KUEUE_API, "kind": "LocalQueue", "metadata": {"name": name, "namespace": name},
               "spec": {"clusterQueue": name}}


def _cluster_queue(name: str, cohort: str, qs: _QueuesSet, flavor: str) -> dict:
    # utiltestingapi.MakeClusterQueue's defaults, then Cohort, ResourceGroup, Preemption, Label.
    quota = {"name": "cpu", "nominalQuota": qs.nominal_quota}
    if qs.borrowing_limit:  # FlavorQuotasWrapper.Resource skips an empty borrowing limit
        quota["borrowingLimit"] = qs.borrowing_limit
    preemption = {}
    if qs.reclaim_within_cohort:
        preemption["reclaimWithinCohort"] = qs.reclaim_within_cohort
    if qs.within_cluster_queue:
        preemption["withinClusterQueue"] = qs.within_cluster_queue
    return {
        "apiVersion": KUEUE_API, "kind": "ClusterQueue",
        "metadata": {"name": name, "labels": {CLASS_LABEL: qs.class_name, CLEANUP_LABEL: "true"}},
        "spec": {
            "cohortName": cohort,
            "namespaceSelector": {},
            "queueingStrategy": "BestEffortFIFO",
            "flavorFungibility": {"whenCanBorrow": "MayStopSearch", "whenCanPreempt": "TryNextFlavor"},
            "resourceGroups": [{"coveredResources": ["cpu"], "flavors": [{"name": flavor, "resources": [quota]}]}],
            "preemption": preemption,
        },
    }


def _workloads(config: _Config) -> list[GeneratedWorkload]:
    timed: list[tuple[int, int, dict]] = []
    for _, qs, queue in _queues(config):
        for si, ws in enumerate(qs.workloads_sets):
            shapes = [_WorkloadShape(t) for t in ws.templates]
            for rnd in range(ws.count):
                for ti, shape in enumerate(shapes):
                    # generateWlSet waits the interval before every create, the first included.
                    arrival_ms = (rnd * len(shapes) + ti + 1) * ws.interval_ms
                    timed.append((arrival_ms, len(timed), shape.workload(_workload_name(shape.class_name, si, rnd, ti), queue)))
    timed.sort()  # by arrival, then generation order: the order numbers are unique, no manifest is compared
    return [GeneratedWorkload(manifest, ms / 1000) for ms, _, manifest in timed]


class _WorkloadShape:
    """The parts of a template's Workloads that do not vary: its labels, annotations and pod sets
    are built once and shared by all of them (50,000 Workloads build in a fraction of the time),
    so a manifest must be treated as read-only."""

    __slots__ = ("class_name", "labels", "annotations", "priority", "pod_sets")

    def __init__(self, t: _Template):
        # utiltestingapi.MakeWorkload(name, ns).Queue(lq).Label(...).Priority(p).Request(cpu, request);
        # with a tasLevel, .PodSets(MakePodSet("main", podCount).Request(cpu, request) + its topology request)
        self.class_name = t.class_name
        self.labels = {RUNNING_TIME_LABEL: str(t.runtime_ms), CLASS_LABEL: t.class_name,
                       QUOTACTL_CLASS_LABEL: t.class_name}
        self.annotations = {QUOTACTL_RUNTIME_ANNOTATION: runtime_text(t.runtime_ms)}
        self.priority = t.priority
        pod_set = {"name": "main", "count": t.tas.pod_count if t.tas else 1, "template": {"spec": {
            "restartPolicy": "Never",
            "containers": [{"name": "c", "resources": {"requests": {"cpu": t.request}}}],
        }}}
        topology_request = tas.topology_request(t.tas) if t.tas else None
        if topology_request is not None:
            pod_set["topologyRequest"] = topology_request
        self.pod_sets = [pod_set]

    def workload(self, name: str, queue: str) -> dict:
        return {
            "apiVersion": KUEUE_API, "kind": "Workload",
            "metadata": {"name": name, "namespace": queue, "labels": self.labels, "annotations": self.annotations},
            "spec": {"queueName": queue, "priority": self.priority, "podSets": self.pod_sets},
        }


def runtime_text(ms: int) -> str:
    """Milliseconds as a duration in seconds, exactly: 200 -> "0.2s", 1000 -> "1s"."""
    seconds, rest = divmod(ms, 1000)
    return f"{seconds}.{rest:03d}".rstrip("0") + "s" if rest else f"{seconds}s"
