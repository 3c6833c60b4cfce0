"""Reading the objects: paginated lists (``limit`` + ``continue``, as kubectl does), each item
given back its ``kind`` and ``apiVersion`` (list items carry neither) and stripped of
``metadata.managedFields`` (server bookkeeping, often most of an object's bytes); a list the
credentials may not read (403) is recorded as skipped and the rest goes on."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from quotactl.live.client import Connection, Forbidden, LiveError
from quotactl.live.discovery import Discovery, Served
from quotactl.live.resources import NamedConfigMap, Wanted

PAGE_SIZE = 500
MAX_PAGES = 100_000  # a server handing out continue tokens forever must not hang the run
PROGRESS_PAGES = 20  # a list longer than this many pages (10,000 objects) reports its progress

# progress(what, objects read so far): called every PROGRESS_PAGES pages of one long list
Progress = Callable[[str, int], None]


@dataclass(frozen=True)
class Scope:
    """Which namespaces namespaced lists read: None = all (cluster-wide lists)."""

    namespaces: tuple[str, ...] | None = None

    def describe(self, served: Served) -> str:
        if not served.namespaced:
            return "cluster-scoped"
        return "all namespaces" if self.namespaces is None else "namespace " + ", ".join(self.namespaces)


@dataclass
class Fetched:
    """The objects read (one list per wanted kind, in order) and what could not be read."""

    groups: list[list[dict]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    @property
    def objects(self) -> list[dict]:
        return [o for group in self.groups for o in group]


def fetch(conn: Connection, discovery: Discovery, wanted: list[Wanted], configmaps: list[NamedConfigMap],
          scope: Scope, progress: Progress | None = None, into: Fetched | None = None) -> Fetched:
    """The objects of ``wanted`` and the ConfigMaps, added to ``into`` (a new Fetched if None). An
    object ``into`` already holds is not added twice (the Pods Kueue manages are read by label, then
    again among all live Pods for topology-aware scheduling)."""
    out = into if into is not None else Fetched()
    for w in wanted:
        served = discovery.find(w)
        if served is None:
            continue  # the kind's API is not installed: nothing of it can exist
        held = {identity(o) for o in out.objects if o.get("kind") == w.kind} if into is not None else set()
        out.groups.append(_read_kind(conn, served, w, scope, out.skipped, progress, held))
    configmap = discovery.find(Wanted("", "ConfigMap")) if configmaps else None
    if configmap is not None:
        out.groups.append(_read_configmaps(conn, configmap, configmaps, out.skipped))
    return out


def _read_kind(conn: Connection, served: Served, wanted: Wanted, scope: Scope, skipped: list[str],
               progress: Progress | None = None, held: set = frozenset()) -> list[dict]:
    namespaces = scope.namespaces if served.namespaced and scope.namespaces is not None else (None,)
    seen: dict[tuple, dict] = {}
    for ns in namespaces:
        for selector in wanted.selectors or (None,):
            path = served.path(ns)
            try:
                items = list_all(conn, path, selector, wanted.field_selector, _named(progress, served.label))
            except Forbidden:
                where = f"namespace {ns}" if ns else scope.describe(served)
                skipped.append(f"{served.label} ({where})")
                continue
            for item in items:
                key = identity(item)
                if key not in seen and key not in held:
                    trim = wanted.trim
                    seen[key] = trim(item, served.api_version, served.kind) if trim else clean(item, served)
    return [seen[k] for k in sorted(seen)]


def _read_configmaps(conn: Connection, served: Served, wanted: list[NamedConfigMap], skipped: list[str]) -> list[dict]:
    out = []
    for cm in wanted:
        try:
            doc = conn.get(f"{served.path(cm.namespace)}/{cm.name}")
        except Forbidden:
            skipped.append(f"configmaps/{cm.name} (namespace {cm.namespace})")
            continue
        if doc is not None:
            out.append(clean(doc, served))
    return out


def _named(progress: Progress | None, label: str) -> Callable[[int], None] | None:
    return None if progress is None else (lambda n: progress(label, n))


def list_all(conn: Connection, path: str, selector: str | None, field_selector: str | None = None,
             progress: Callable[[int], None] | None = None) -> list[dict]:
    """Every item of a list, page by page; ``progress(items so far)`` every PROGRESS_PAGES pages."""
    params: dict[str, str | int] = {"limit": PAGE_SIZE}
    if selector:
        params["labelSelector"] = selector
    if field_selector:
        params["fieldSelector"] = field_selector
    items: list[dict] = []
    for pages in range(1, MAX_PAGES + 1):
        page = conn.get(path, params)
        if page is None:
            return items
        items.extend(i for i in page.get("items") or [] if isinstance(i, dict))
        if progress is not None and pages % PROGRESS_PAGES == 0:
            progress(len(items))
        token = (page.get("metadata") or {}).get("continue")
        if not token:
            return items
        params["continue"] = token
    raise LiveError(f"{conn.server}: GET {path}: more than {MAX_PAGES} pages; giving up")


def clean(item: dict, served: Served) -> dict:
    """The object as ``kubectl get -o yaml`` shows one: apiVersion and kind first, no managedFields
    but the entry that owns a Workload's ``status.admission``, cut down to that field (who owns
    it decides whether an eviction removes it: ``kueue.workload.eviction_clears_admission``)."""
    obj = {"apiVersion": served.api_version, "kind": served.kind}
    obj.update((k, v) for k, v in item.items() if k not in ("apiVersion", "kind"))
    md = obj.get("metadata")
    if isinstance(md, dict) and "managedFields" in md:
        kept = _admission_owner_entries(md["managedFields"]) if served.kind == "Workload" else []
        obj["metadata"] = {k: v for k, v in md.items() if k != "managedFields"}
        if kept:
            obj["metadata"]["managedFields"] = kept
    return obj


def _admission_owner_entries(entries) -> list[dict]:
    kept = []
    for e in entries if isinstance(entries, list) else ():
        fields_v1 = e.get("fieldsV1") if isinstance(e, dict) else None
        status = fields_v1.get("f:status") if isinstance(fields_v1, dict) else None
        if isinstance(status, dict) and "f:admission" in status:
            kept.append({k: e[k] for k in ("manager", "operation", "subresource") if k in e}
                        | {"fieldsType": "FieldsV1", "fieldsV1": {"f:status": {"f:admission": {}}}})
    return kept


def identity(obj: dict) -> tuple[str, str]:
    md = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    return str(md.get("namespace") or ""), str(md.get("name") or "")
