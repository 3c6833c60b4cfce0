"""Which resources the API server serves, and at which version: ``/apis`` names each group's
versions and its preferred one, ``/api/v1`` and ``/apis/<group>/<version>`` the resources
(plural name, kind, namespaced). A kind is read at the first version of its preference list the
server serves (Kueue: v1beta2, then v1beta1), else at the group's preferred version."""

from __future__ import annotations

from dataclasses import dataclass

from quotactl.live.client import Connection, Forbidden, LiveError
from quotactl.live.resources import Wanted


@dataclass(frozen=True)
class Served:
    """A resource as the server serves it: where to list it and what its items are."""

    group: str
    version: str
    plural: str
    kind: str
    namespaced: bool

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    def path(self, namespace: str | None = None) -> str:
        base = f"/apis/{self.group}/{self.version}" if self.group else f"/api/{self.version}"
        scope = f"/namespaces/{namespace}" if namespace and self.namespaced else ""
        return f"{base}{scope}/{self.plural}"

    @property
    def label(self) -> str:
        return f"{self.plural}.{self.group}" if self.group else self.plural


class Discovery:
    """The server's groups, read once; resource lists per group version read on first use."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.groups = _group_versions(_required(conn, "/apis"))
        self.groups[""] = ("v1",)
        self._resources: dict[tuple[str, str], dict[str, Served]] = {}

    def serves_group(self, group: str) -> bool:
        return group in self.groups

    def find(self, wanted: Wanted) -> Served | None:
        """Where ``wanted`` is served, or None when the server does not know the kind."""
        served = self.groups.get(wanted.group)
        if not served:
            return None
        order = [v for v in wanted.versions if v in served] or list(served)
        for version in order:
            found = self._kinds(wanted.group, version).get(wanted.kind)
            if found is not None:
                return found
        return None

    def _kinds(self, group: str, version: str) -> dict[str, Served]:
        key = (group, version)
        if key not in self._resources:
            path = f"/apis/{group}/{version}" if group else f"/api/{version}"
            try:
                doc = self.conn.get(path) or {}
            except Forbidden:
                doc = {}
            self._resources[key] = _resource_kinds(group, version, doc)
        return self._resources[key]


def _required(conn: Connection, path: str) -> dict:
    try:
        doc = conn.get(path)
    except Forbidden:
        raise LiveError(f"{conn.server}: the credentials of context {conn.context!r} may not read "
                        f"the API discovery ({path}, 403 Forbidden)") from None
    if doc is None:
        raise LiveError(f"{conn.server}: GET {path}: not found (is this a Kubernetes API server?)")
    return doc


def _group_versions(doc: dict) -> dict[str, tuple[str, ...]]:
    """Each group's versions, the preferred version first."""
    out: dict[str, tuple[str, ...]] = {}
    for g in doc.get("groups") or []:
        if not isinstance(g, dict) or not isinstance(g.get("name"), str):
            continue
        versions = [v.get("version") for v in g.get("versions") or [] if isinstance(v, dict)]
        preferred = (g.get("preferredVersion") or {}).get("version")
        ordered = ([preferred] if preferred in versions else []) + [v for v in versions if v != preferred]
        out[g["name"]] = tuple(v for v in ordered if isinstance(v, str))
    return out


def _resource_kinds(group: str, version: str, doc: dict) -> dict[str, Served]:
    """Kind -> resource of one group version; subresources (``pods/status``) left out."""
    out: dict[str, Served] = {}
    for r in doc.get("resources") or []:
        if not isinstance(r, dict):
            continue
        name, kind = r.get("name"), r.get("kind")
        if not isinstance(name, str) or "/" in name or not isinstance(kind, str):
            continue
        if "list" not in (r.get("verbs") or ["list"]):
            continue
        out.setdefault(kind, Served(group, version, name, kind, bool(r.get("namespaced"))))
    return out
