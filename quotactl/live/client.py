"""One connection to an API server through the official ``kubernetes`` client library: the
kubeconfig (contexts, tokens, client certificates, exec credential plugins) is read by the
library's own loader; requests are plain GETs of JSON. Every failure becomes a ``LiveError``
(one line, exit 2) except a 403, which the caller reports as a skipped resource.

The library is imported here only, and only when a command reads a cluster: importing it costs
more than the rest of quotactl's start-up.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from urllib.parse import urlencode

from quotactl.load.sources import UsageError

DEFAULT_TIMEOUT = 30.0


class LiveError(UsageError):
    """The cluster cannot be read at all (kubeconfig, network, TLS, credentials)."""


class Forbidden(Exception):
    """The credentials may not read this path (HTTP 403)."""


@dataclass(frozen=True)
class Target:
    """Which cluster to read, as kubectl names it."""

    kubeconfig: str | None = None
    context: str | None = None
    timeout: float = DEFAULT_TIMEOUT


class _KubeconfigLog(logging.Handler):
    """The library logs (instead of raising) when an exec credential plugin fails; keep the
    message so the user sees why the server then refuses the credentials."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage().splitlines()[0] if record.getMessage() else "")


class Connection:
    """GETs against one API server; ``name`` is the context (``cluster:<context>`` in file names)."""

    def __init__(self, target: Target) -> None:
        self.target = target
        self.credential_problems: list[str] = []
        self._api, self.context, self.server = _connect(target, self.credential_problems)

    def get(self, path: str, params: dict | None = None) -> dict | None:
        """The JSON body of ``path``; None when it does not exist (404)."""
        from kubernetes.client.exceptions import ApiException
        from urllib3.exceptions import HTTPError

        url_path = path + ("?" + urlencode(params) if params else "")
        try:
            method, url, headers, _body, _post = self._api.param_serialize(
                "GET", url_path, header_params={"Accept": "application/json"}, auth_settings=["BearerToken"])
            response = self._api.call_api(method, url, headers, _request_timeout=self.target.timeout)
            body = response.read()
        except (HTTPError, ApiException, OSError) as exc:
            raise LiveError(self._network_message(exc)) from None
        return self._decode(path, response.status, body)

    def _decode(self, path: str, status: int, body: bytes) -> dict | None:
        if status == 404:
            return None
        if status == 403:
            raise Forbidden(path)
        if status == 401:
            why = f" ({'; '.join(self.credential_problems)})" if self.credential_problems else ""
            raise LiveError(f"{self.server} refused the credentials of context {self.context!r} "
                            f"(401 Unauthorized){why}")
        if status >= 300:
            raise LiveError(f"{self.server}: GET {path}: HTTP {status}: {_status_message(body)}")
        try:
            doc = json.loads(body)
        except ValueError:
            raise LiveError(f"{self.server}: GET {path}: the answer is not JSON") from None
        if not isinstance(doc, dict):
            raise LiveError(f"{self.server}: GET {path}: the answer is not a JSON object")
        return doc

    def _network_message(self, exc: Exception) -> str:
        from urllib3.exceptions import NameResolutionError, NewConnectionError, SSLError, TimeoutError

        where = f"{self.server} (context {self.context!r})"
        # urllib3's NewConnectionError is a ConnectTimeoutError too: test it first.
        if isinstance(exc, NameResolutionError):
            return f"cannot resolve the host of {where}"
        if isinstance(exc, NewConnectionError):
            return f"cannot connect to {where}: {_reason(exc)}"
        if isinstance(exc, TimeoutError):
            return f"no answer from {where} within {self.target.timeout:g}s (--request-timeout)"
        if isinstance(exc, SSLError) or "SSL" in type(exc).__name__ or "SSLError" in str(exc):
            return f"TLS error talking to {where}: {_reason(exc)}"
        return f"cannot read from {where}: {_reason(exc)}"


def _reason(exc: Exception) -> str:
    """The innermost cause, on one line (urllib3 nests the socket error in its own)."""
    reason = getattr(exc, "reason", None)
    text = reason if isinstance(reason, str) and reason.strip() else str(exc)
    text = [line for line in text.splitlines() if line.strip()][-1] if text.strip() else type(exc).__name__
    for marker in ("Connection refused", "timed out", "certificate verify failed", "Name or service not known"):
        if marker in text:
            return marker.lower()
    return " ".join(text.split())[:300]


def _status_message(body: bytes) -> str:
    """The ``message`` of a Kubernetes Status body, else the start of the body."""
    try:
        doc = json.loads(body)
    except ValueError:
        return " ".join(body.decode("utf-8", "replace").split())[:200] or "(empty body)"
    return str(doc.get("message") or doc.get("reason") or "") if isinstance(doc, dict) else str(doc)[:200]


def _connect(target: Target, problems: list[str]):
    """An ApiClient for the kubeconfig context, with urllib3's retries off (a refused port or a
    timeout is reported at once, not after four attempts)."""
    from kubernetes import client, config
    from kubernetes.config.config_exception import ConfigException

    log = _KubeconfigLog()
    logging.getLogger().addHandler(log)
    path = target.kubeconfig or config.KUBE_CONFIG_DEFAULT_LOCATION
    if not any(os.path.exists(os.path.expanduser(p)) for p in path.split(os.pathsep) if p):
        raise LiveError(f"kubeconfig {path}: no such file (give --kubeconfig PATH, or set KUBECONFIG)")
    try:
        contexts, active = config.list_kube_config_contexts(target.kubeconfig)
        chosen = target.context or (active or {}).get("name")
        if target.context and target.context not in {c.get("name") for c in contexts or []}:
            known = ", ".join(sorted(str(c.get("name")) for c in contexts or [])) or "none"
            raise LiveError(f"kubeconfig: no context {target.context!r} (contexts: {known})")
        configuration = type.__call__(client.Configuration)
        config.load_kube_config(config_file=target.kubeconfig, context=target.context,
                                client_configuration=configuration, persist_config=False)
    except LiveError:
        raise
    except ConfigException as exc:
        raise LiveError(f"kubeconfig: {' '.join(str(exc).split())}") from None
    except Exception as exc:  # a malformed kubeconfig fails in YAML, in the loader or in an exec plugin
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise LiveError(f"kubeconfig {path}: cannot read it: {first}") from None
    finally:
        logging.getLogger().removeHandler(log)
    problems.extend(m for m in log.messages if m)
    configuration.retries = False
    return client.ApiClient(configuration=configuration), str(chosen), configuration.host
