"""Documents -> Kubernetes objects: ``kind: List`` unwrapping, kind and dialect detection."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.load.document import Document, ObjectRef, format_path, get_in
from quotactl.load.embedded import embedded_documents
from quotactl.load.kind_typos import Typo, kueue_typo
from quotactl.load.nonmanifest import screen, template_note
from quotactl.load.object_ids import object_id, raw_object_id
from quotactl.load.sources import Source, collect_sources
from quotactl.load.yamlparse import DEFAULT_LIMITS, Limits, parse_documents
from quotactl.model.gc_pause import fewer_gc_pauses, keep_for_the_run

KUEUE_GROUP = "kueue.x-k8s.io"
KUEUE_CONFIG_GROUP = "config.kueue.x-k8s.io"

# Kinds quotactl models, per apiVersion group (core group = "").
KUEUE_KINDS = {
    "ResourceFlavor", "ClusterQueue", "Cohort", "LocalQueue", "WorkloadPriorityClass", "Workload",
    "AdmissionCheck", "Topology", "MultiKueueCluster", "MultiKueueConfig", "ProvisioningRequestConfig",
}
# Kueue's opt-in alpha kinds (kueue.x-k8s.io/v1alpha1, Kueue v0.20: configurable preemptions, dynamic
# quota orchestration). Recognised but not modelled yet: one info per kind per run, never "unknown".
KUEUE_ALPHA_KINDS = {"PreemptionConfig", "CapacityProvider", "DynamicQuotaOrchestrator"}
# Of those, the kinds lint checks against their CRD (lint/schema.py SERVED), still left out of the model.
CHECKED_ALPHA_KINDS = frozenset({"PreemptionConfig"})
# The kinds of each Kueue API group: an unrecognised object whose group or kind is near one of these
# is a misspelling (load.kind_typos), not a kind quotactl may skip.
KUEUE_API_KINDS = {KUEUE_GROUP: frozenset(KUEUE_KINDS | KUEUE_ALPHA_KINDS),
                   KUEUE_CONFIG_GROUP: frozenset({"Configuration"})}
# The Kueue manager's Configuration as deployed: ConfigMap kueue-manager-config in kueue-system,
# the file under this key (Kueue config/components/manager/kustomization.yaml configMapGenerator).
MANAGER_CONFIG_KEY = "controller_manager_config.yaml"


class Dialect:
    KUEUE = "kueue"
    YUNIKORN = "yunikorn"
    # Kubernetes objects either scheduler reads (Namespace, PriorityClass, Node, Pod): they go with the
    # scheduler whose configuration is in the input; only a YuniKorn config makes an input YuniKorn.
    NEUTRAL = "neutral"
    JOB = "job"  # job objects Kueue's integrations turn into Workloads, and what they need (quotactl.jobs)
    NONE = "none"


@dataclass(slots=True)  # one per object of the input: no __dict__ each
class KubeObject:
    """One Kubernetes object as loaded: its raw data and where it came from."""

    api_version: str
    kind: str
    data: dict
    ref: ObjectRef
    dialect: str

    @property
    def group(self) -> str:
        return self.api_version.rpartition("/")[0] if "/" in self.api_version else ""

    @property
    def version(self) -> str:
        return self.api_version.rpartition("/")[2]

    @property
    def metadata(self) -> dict:
        md = self.data.get("metadata")
        return md if isinstance(md, dict) else {}

    @property
    def name(self) -> str | None:
        name = self.metadata.get("name")
        return name if isinstance(name, str) else (str(name) if name is not None else None)

    @property
    def namespace(self) -> str | None:
        ns = self.metadata.get("namespace")
        return ns if isinstance(ns, str) else None

    @property
    def display(self) -> str:
        """``Kind/namespace/name``, or ``Kind/name`` when cluster-scoped (load.object_ids)."""
        return object_id(self.kind, self.name, self.namespace)

    @property
    def label(self) -> str:
        """``display``, or the kind alone for an unnamed object (a scheduler's configuration file)."""
        return self.display if self.name is not None else self.kind


_DIALECT = attrgetter("dialect")


@dataclass
class LoadResult:
    sources: list[Source] = field(default_factory=list)
    documents: list[Document] = field(default_factory=list)
    objects: list[KubeObject] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    alpha_kinds_noted: set[str] = field(default_factory=set)  # KUEUE_ALPHA_KINDS already reported
    # Objects of KUEUE_ALPHA_KINDS: left out of the model, kept so that caveats can name them
    alpha_objects: list[KubeObject] = field(default_factory=list)

    @property
    def dialects(self) -> set[str]:
        return set(map(_DIALECT, self.objects)) & {Dialect.KUEUE, Dialect.YUNIKORN}

    def of_kind(self, kind: str) -> list[KubeObject]:
        return [o for o in self.objects if o.kind == kind]


def classify(api_version: str, kind: str, data: dict) -> str | None:
    """The dialect of an object, or None when quotactl does not know the kind."""
    group = api_version.rpartition("/")[0] if "/" in api_version else ""
    if group == KUEUE_GROUP and kind in KUEUE_KINDS:
        return Dialect.KUEUE
    if group == KUEUE_CONFIG_GROUP and kind == "Configuration":
        return Dialect.KUEUE
    if group == "scheduling.k8s.io" and kind == "PriorityClass":
        return Dialect.NEUTRAL
    if group == "" and kind == "Namespace":
        return Dialect.NEUTRAL
    if group == "" and kind == "Pod" and _kueue_labels(data):
        return Dialect.JOB  # a plain Pod or pod-group member that Kueue's pod integration manages
    if group == "" and kind in ("Pod", "Node"):
        return Dialect.NEUTRAL  # YuniKorn's placement and usage, Kueue's topology-aware capacity
    if group == "resource.k8s.io" and kind in ("ResourceClaimTemplate", "ResourceClaim"):
        return Dialect.NEUTRAL  # the devices of Dynamic Resource Allocation claims (Kueue charges them)
    if group == "" and kind == "ConfigMap" and is_yunikorn_configmap(data):
        return Dialect.YUNIKORN
    if (group, kind) in JOB_CONTEXT_KINDS or _is_job(group, kind, data):
        return Dialect.JOB
    return None


# The kinds Kueue's job integrations handle, by API group (any version: an unknown one is reported).
# ``jobs/registry.py`` maps each to its integration; loading only needs to know the kinds, so it
# imports no integration (tests/jobs/test_registry.py keeps the two equal).
JOB_KINDS = frozenset({
    ("batch", "Job"), ("jobset.x-k8s.io", "JobSet"), ("leaderworkerset.x-k8s.io", "LeaderWorkerSet"),
    ("ray.io", "RayJob"), ("ray.io", "RayCluster"), ("kubeflow.org", "PyTorchJob"), ("kubeflow.org", "TFJob"),
    ("kubeflow.org", "XGBoostJob"), ("kubeflow.org", "PaddleJob"), ("kubeflow.org", "JAXJob"),
    ("kubeflow.org", "MPIJob"), ("trainer.kubeflow.org", "TrainJob"), ("workload.codeflare.dev", "AppWrapper"),
    ("", "Pod"), ("apps", "Deployment"), ("apps", "StatefulSet"),
})
# Objects the job integrations read besides the jobs (overhead, defaults, training runtimes).
JOB_CONTEXT_KINDS = {("node.k8s.io", "RuntimeClass"), ("", "LimitRange"),
                     ("trainer.kubeflow.org", "ClusterTrainingRuntime"), ("trainer.kubeflow.org", "TrainingRuntime")}


def _kueue_labels(data: dict) -> bool:
    """Whether a Pod carries Kueue's queue-name or pod-group-name label."""
    md = data.get("metadata")
    labels = md.get("labels") if isinstance(md, dict) else None
    return isinstance(labels, dict) and ("kueue.x-k8s.io/queue-name" in labels
                                         or "kueue.x-k8s.io/pod-group-name" in labels)


def _is_job(group: str, kind: str, data: dict) -> bool:
    """A kind Kueue integrates (any version: an unknown one is reported), or any object asking
    for a Kueue queue (reported as a kind Kueue does not integrate)."""
    labels = (data.get("metadata") or {}).get("labels") if isinstance(data.get("metadata"), dict) else None
    return (group, kind) in JOB_KINDS or (isinstance(labels, dict) and "kueue.x-k8s.io/queue-name" in labels)


def is_yunikorn_configmap(data: dict) -> bool:
    md = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    payload = data.get("data") if isinstance(data.get("data"), dict) else {}
    return md.get("name") in ("yunikorn-configs", "yunikorn-defaults") or any(
        isinstance(k, str) and k.endswith(".yaml") and "partitions" in str(v) for k, v in payload.items()
    )


# The parts of a YuniKorn partition besides its name (yunikorn-core pkg/common/configs/config.go
# PartitionConfig): a document made of these alone is one part of a partition.
PARTITION_PARTS = frozenset({"queues", "placementrules", "limits", "nodesortpolicy", "preemption",
                             "usergroupresolver", "statedumpfilepath"})
# The Helm chart's values key rendered into the yunikorn-defaults ConfigMap's data
# (yunikorn-release helm-charts/yunikorn/templates/yunikorn-defaults.yaml).
HELM_DEFAULTS_KEY = "yunikornDefaults"


def yunikorn_fragment(data: dict) -> tuple[str, tuple] | None:
    """A YuniKorn config written without its envelope, and where in the document it sits:

    * ``ConfigMapData``: the ``data`` of a YuniKorn ConfigMap (a ``queues.yaml: |`` key holding a
      queue document), or the Helm chart's ``yunikornDefaults`` values;
    * ``PartitionFragment``: the queues, placement rules, ... of one partition, without ``partitions``.
    """
    if isinstance(data.get(HELM_DEFAULTS_KEY), dict):
        return "ConfigMapData", (HELM_DEFAULTS_KEY,)
    if any(isinstance(k, str) and k.endswith(".yaml") and isinstance(v, str) and "partitions" in v
           for k, v in data.items()):
        return "ConfigMapData", ()
    parts = {k for k in data if k != "name"}
    if parts and parts <= PARTITION_PARTS and parts & {"queues", "placementrules"}:
        return "PartitionFragment", ()
    return None


def load(paths: list[str], *, limits: Limits = DEFAULT_LIMITS, stdin=None, fast_json: bool = True,
         texts: tuple[Source, ...] = (), skip=None) -> LoadResult:
    """Read every input and return the objects found, plus diagnostics for what was not usable.

    ``fast_json``: parse JSON texts with the json module (positions computed when first asked
    for, per List item); off, they go through the YAML composer like any YAML. ``texts``: inputs
    already in memory (a cluster read with --from-cluster), loaded before the files. ``skip``:
    files of a directory walk to leave out (``collect_sources``).
    """
    with fewer_gc_pauses():  # millions of fresh dicts and strings, no cycles
        result = _load(paths, limits, stdin, fast_json, texts, skip)
        keep_for_the_run()
    return result


def _load(paths: list[str], limits: Limits, stdin, fast_json: bool, texts: tuple[Source, ...], skip) -> LoadResult:
    result = LoadResult()
    sources, diags = collect_sources(paths, limits=limits, stdin=stdin, skip=skip)
    manifests, skipped = screen(sources)  # Helm, Kustomize, docs snippets: one note each, not parsed
    result.sources = list(texts) + sources
    result.diagnostics.extend(diags + skipped)
    for src in list(texts) + manifests:
        if src.text is None:
            continue
        docs, parse_diags = parse_documents(src.text, src.name, limits=limits, fast_json=fast_json)
        template = template_note(src, parse_diags)
        if template is not None:  # not YAML because it is a template: one note, not a syntax error
            result.diagnostics.append(template)
            continue
        result.documents.extend(docs)
        result.diagnostics.extend(parse_diags)
        for doc in docs:
            _collect_objects(doc, doc.data, (), result, depth=0)
    return result


def _collect_objects(doc: Document, data: Any, base: tuple, result: LoadResult, depth: int) -> None:
    ref = ObjectRef(doc, base)
    if data is None:
        return
    if not isinstance(data, dict):
        result.diagnostics.append(
            Diagnostic("IN009", Severity.WARNING, f"document is a {_type_name(data)}, not a Kubernetes object; skipped",
                       doc.file, *_lc(ref.pos()))
        )
        return
    api_version, kind = data.get("apiVersion"), data.get("kind")
    if kind is None and api_version is None:
        if "partitions" in data:
            result.objects.append(KubeObject("yunikorn/v1", "SchedulerConfig", data, ref, Dialect.YUNIKORN))
            return
        fragment = yunikorn_fragment(data)
        if fragment is not None:
            kind, at = fragment
            inner = data[at[0]] if at else data
            result.objects.append(KubeObject("yunikorn/v1", kind, inner, ObjectRef(doc, base + at), Dialect.YUNIKORN))
            return
        if "metadata" in data or "spec" in data:
            result.diagnostics.append(
                Diagnostic("IN009", Severity.ERROR, "object has no apiVersion and kind", doc.file, *_lc(ref.pos()),
                           hint="add apiVersion (e.g. kueue.x-k8s.io/v1beta2) and kind", input_error=True)
            )
        else:
            result.diagnostics.append(
                Diagnostic("IN009", Severity.INFO, "document has no apiVersion/kind (not a Kubernetes object); skipped",
                           doc.file, *_lc(ref.pos()))
            )
        return
    if not isinstance(api_version, str) or not isinstance(kind, str) or not api_version or not kind:
        missing = "apiVersion" if not isinstance(api_version, str) or not api_version else "kind"
        result.diagnostics.append(
            Diagnostic("IN009", Severity.ERROR, f"object has no valid {missing} (must be a non-empty string)",
                       doc.file, *_lc(ref.pos((missing,))), input_error=True)
        )
        return
    if kind.endswith("List") and isinstance(data.get("items"), list):
        if depth > 2:
            return
        _collect_items(doc, data["items"], base, result, depth + 1)
        return
    if api_version == "v1" and kind == "ConfigMap" and _manager_config_value(data) is not None:
        _collect_manager_config(doc, base, result, depth)
        return
    dialect = classify(api_version, kind, data)
    if dialect is None and api_version.rpartition("/")[0] == KUEUE_GROUP and kind in KUEUE_ALPHA_KINDS:
        if kind not in result.alpha_kinds_noted:
            result.alpha_kinds_noted.add(kind)
            checked = ("checks against its CRD but does not model (what it changes is not simulated)"
                       if kind in CHECKED_ALPHA_KINDS else "recognises but does not check yet (objects of this kind "
                                                            "are skipped, and what they change is not simulated)")
            result.diagnostics.append(Diagnostic(
                "IN003", Severity.INFO, f"{api_version} {kind} is a Kueue alpha kind quotactl {checked}",
                doc.file, *_lc(ref.pos()), object=raw_object_id(kind, data, known_scope=False)))
        result.alpha_objects.append(KubeObject(api_version, kind, data, ref, Dialect.KUEUE))
        return
    if dialect is None:
        typo = kueue_typo(api_version, kind, KUEUE_API_KINDS)
        if typo is not None:
            result.diagnostics.append(_typo_diagnostic(typo, doc, ref, kind, data))
            return
        result.diagnostics.append(Diagnostic("IN003", Severity.INFO, f"{api_version} {kind} is not a kind quotactl "
                                             "checks; skipped", doc.file, *_lc(ref.pos()),
                                             object=raw_object_id(kind, data, known_scope=False)))
        return
    result.objects.append(KubeObject(api_version, kind, data, ref, dialect))


def _collect_items(doc: Document, items: list, base: tuple, result: LoadResult, depth: int) -> None:
    """A List's items: those whose dialect their apiVersion and kind alone decide (nearly all of
    a snapshot's 100,000 Pods and Nodes) are taken here, the rest by ``_collect_objects``."""
    append = result.objects.append
    for i, item in enumerate(items):
        if type(item) is dict:
            api_version, kind = item.get("apiVersion"), item.get("kind")
            dialect = _dialect_of_kind(api_version, kind) if type(api_version) is str and type(kind) is str else None
            if dialect is _POD:
                dialect = Dialect.JOB if _kueue_labels(item) else Dialect.NEUTRAL  # as ``classify``
            if dialect is not None:
                append(KubeObject(api_version, kind, item, ObjectRef(doc, base + ("items", i)), dialect))
                continue
        _collect_objects(doc, item, base + ("items", i), result, depth)


_POD = "pod"  # ``_dialect_of_kind``: a v1 Pod, whose labels decide


def _dialect_of_kind(api_version: str, kind: str) -> str | None:
    """``classify``'s answer when the apiVersion and kind decide it, whatever the object holds (_POD
    for a v1 Pod); None when ``_collect_objects`` must look further (a List, a ConfigMap, a kind
    ``classify`` leaves to the labels or does not know)."""
    key = (api_version, kind)
    if key not in _KIND_DIALECTS:
        group = api_version.rpartition("/")[0]
        known = (group == KUEUE_GROUP and kind in KUEUE_KINDS) or (
            group, kind) in _KIND_ONLY or (group, kind) in JOB_CONTEXT_KINDS or (group, kind) in JOB_KINDS
        plain = api_version and kind and not kind.endswith("List") and kind != "ConfigMap"
        _KIND_DIALECTS[key] = (_POD if (group, kind) == ("", "Pod") else classify(api_version, kind, {})) \
            if known and plain else None
    return _KIND_DIALECTS[key]


# (group, kind) that ``classify`` answers for without reading the object
_KIND_ONLY = frozenset({(KUEUE_CONFIG_GROUP, "Configuration"), ("scheduling.k8s.io", "PriorityClass"),
                        ("", "Namespace"), ("", "Node")})
_KIND_DIALECTS: dict[tuple[str, str], str | None] = {}


def _typo_diagnostic(typo: Typo, doc: Document, ref: ObjectRef, kind: str, data: dict) -> Diagnostic:
    """IN013: kubectl refuses the object ("no matches for kind"); an error, so CI fails on it."""
    hint = "kubectl refuses it (no matches for kind); the object is not checked until the spelling is fixed"
    if typo.suggestion is None:
        hint = f"Kueue's kinds: {', '.join(sorted(KUEUE_KINDS))}; {hint}"
    return Diagnostic("IN013", Severity.ERROR, typo.message, doc.file, *_lc(ref.pos((typo.field,), value=True)),
                      object=raw_object_id(kind, data, known_scope=False), field=typo.field, type="Invalid", hint=hint)


def _manager_config_value(data: dict):
    payload = data.get("data")
    return payload.get(MANAGER_CONFIG_KEY) if isinstance(payload, dict) else None


def _collect_manager_config(doc: Document, base: tuple, result: LoadResult, depth: int) -> None:
    """The Kueue manager ConfigMap: its controller_manager_config.yaml is read as the Configuration
    it holds, positioned inside the ConfigMap's file (as the manager reads it from its mounted file)."""
    path = tuple(base) + ("data", MANAGER_CONFIG_KEY)
    value = _manager_config_value(get_in(doc.data, base))
    if not isinstance(value, str):
        at = doc.pos(path)
        result.diagnostics.append(Diagnostic(
            "IN009", Severity.ERROR, f"{format_path(('data', MANAGER_CONFIG_KEY))} is a YAML "
            f"{_type_name(value)}, not a string: ConfigMap values are text; write '{MANAGER_CONFIG_KEY}: |' and "
            "indent the Configuration below it", doc.file, at.line, at.column, input_error=True))
        return
    docs, diags = embedded_documents(doc, path)
    result.diagnostics.extend(diags)
    for inner in docs:
        _collect_objects(inner, inner.data, (), result, depth + 1)


def _lc(pos) -> tuple[int, int]:
    return pos.line, pos.column


def _type_name(value: Any) -> str:
    return {list: "list", str: "string", int: "number", float: "number", bool: "boolean"}.get(type(value), type(value).__name__)
