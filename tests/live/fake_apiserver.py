"""A fake Kubernetes API server for the --from-cluster tests: plain HTTP on 127.0.0.1 (port 0),
serving recorded discovery documents and list responses (tests/live/data/*.json), started and
stopped by each test.

It behaves like the API server where quotactl depends on it: lists are paginated (at most
``page_size`` items per page whatever ``limit`` asks, with an opaque ``continue`` token),
``/namespaces/<ns>/`` paths, ``labelSelector=<key>`` and ``fieldSelector=<field>!=<value>,...`` filter
(a filtered list is computed once and paged from, so 100,000 items page quickly), unknown paths are 404 with a
Status body, ``forbidden`` paths are 403, and a ``token`` makes every request without that bearer
token a 401. Every request is recorded (path, query, Authorization header).
"""

from __future__ import annotations

import base64
import json
import re
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

DATA = Path(__file__).parent / "data"
NAMESPACED = re.compile(r"^(?P<base>/apis?/(?:[^/]+/)?[^/]+)/namespaces/(?P<ns>[^/]+)/(?P<plural>[^/]+)$")


@dataclass
class Request:
    path: str
    query: dict
    authorization: str | None


@dataclass
class FakeApiServer:
    data: dict
    page_size: int = 2
    forbidden: set[str] = field(default_factory=set)
    token: str | None = None
    requests: list[Request] = field(default_factory=list)
    filtered: dict[tuple, list] = field(default_factory=dict)  # (path, labelSelector, fieldSelector) -> items

    @classmethod
    def recorded(cls, name: str = "kueue", **kwargs) -> FakeApiServer:
        return cls(json.loads((DATA / f"{name}.json").read_text()), **kwargs)

    def __enter__(self) -> FakeApiServer:
        server = self

        class Handler(BaseHTTPRequestHandler):
            disable_nagle_algorithm = True  # headers and body leave at once: no delayed-ACK stall per page

            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                status, body = server.answer(self.path, self.headers.get("Authorization"))
                raw = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args) -> None:
                pass

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._http.shutdown()
        self._http.server_close()
        self._thread.join()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._http.server_address[1]}"

    def answer(self, raw_path: str, authorization: str | None) -> tuple[int, dict]:
        parts = urlsplit(raw_path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        self.requests.append(Request(parts.path, query, authorization))
        if self.token and authorization != f"Bearer {self.token}":
            return 401, status(401, "Unauthorized")
        if any(parts.path.startswith(p) for p in self.forbidden):
            return 403, status(403, f'{parts.path} is forbidden: User "oncall" cannot list this resource')
        if parts.path in self.data["discovery"]:
            return 200, self.data["discovery"][parts.path]
        if parts.path in self.data["objects"]:
            return 200, self.data["objects"][parts.path]
        key = (parts.path, query.get("labelSelector"), query.get("fieldSelector"))
        if key not in self.filtered:
            items = self._items(parts.path)
            if items is None:
                return 404, status(404, "the server could not find the requested resource")
            self.filtered[key] = _selected(items, key[1], key[2])
        return 200, self._page(self.filtered[key], query)

    def _items(self, path: str) -> list | None:
        m = NAMESPACED.match(path)
        if m:
            items = self.data["lists"].get(f"{m['base']}/{m['plural']}")
            return None if items is None else [i for i in items if i["metadata"].get("namespace") == m["ns"]]
        return self.data["lists"].get(path)

    def _page(self, items: list, query: dict) -> dict:
        limit = min(int(query.get("limit", len(items) or 1)), self.page_size)
        start = int(base64.b64decode(query["continue"])) if query.get("continue") else 0
        end = start + limit
        meta = {"resourceVersion": "4711"}
        if end < len(items):
            meta["continue"] = base64.b64encode(str(end).encode()).decode()
        return {"kind": "List", "apiVersion": "v1", "metadata": meta, "items": items[start:end]}


def _selected(items: list, labels: str | None, fields: str | None) -> list:
    """The items a label selector (one key that must exist) and a field selector (``path!=value``
    terms, all of which must hold, as the API server does for status.phase) keep."""
    if labels:
        items = [i for i in items if labels in (i["metadata"].get("labels") or {})]
    for term in (fields or "").split(","):
        if term:
            path, _, value = term.partition("!=")
            items = [i for i in items if _field(i, path) != value]
    return items


def _field(item: dict, path: str):
    for key in path.split("."):
        item = item.get(key) if isinstance(item, dict) else None
    return item


def status(code: int, message: str) -> dict:
    return {"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": message, "code": code}


class SilentServer:
    """Accepts connections and never answers (a hung API server)."""

    def __enter__(self) -> SilentServer:
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(8)
        return self

    def __exit__(self, *exc) -> None:
        self._sock.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._sock.getsockname()[1]}"


def refused_url() -> str:
    """The address of a port nothing listens on (bound, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def kubeconfig(path: Path, server: str, *, exec_token: str | None = None, token: str | None = None,
               context: str = "fake") -> Path:
    """A kubeconfig with one context for ``server``; the user authenticates with a static token, or
    with an exec credential plugin (a Python script printing an ExecCredential) when exec_token is
    given."""
    user: dict = {}
    if token:
        user["token"] = token
    if exec_token:
        plugin = path.parent / "credential-plugin.py"
        plugin.write_text("import json\nprint(json.dumps({'apiVersion': 'client.authentication.k8s.io/v1beta1', "
                          f"'kind': 'ExecCredential', 'status': {{'token': {exec_token!r}}}}}))\n")
        import sys

        user["exec"] = {"apiVersion": "client.authentication.k8s.io/v1beta1", "command": sys.executable,
                        "args": [str(plugin)], "interactiveMode": "Never"}
    config = {"apiVersion": "v1", "kind": "Config", "current-context": context,
              "clusters": [{"name": "c", "cluster": {"server": server}}],
              "users": [{"name": "u", "user": user}],
              "contexts": [{"name": context, "context": {"cluster": "c", "user": "u"}}]}
    path.write_text(json.dumps(config))
    return path
