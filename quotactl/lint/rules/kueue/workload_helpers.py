"""Helpers for the Workload, priority and cross-object rules (KQ4xx, KQ5xx): raw-data access,
Kubernetes label/annotation/toleration validation with the API server's messages, and Kueue's
integer view of resource amounts.

Not a rule module: it registers nothing.  Every helper tolerates input of the wrong shape
(schema validation reports that); they never raise on user data.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from quotactl.load.document import get_in
from quotactl.model.quantity import Quantity, QuantityError, format_nanos
from quotactl.model.validation import (
    dns1123_subdomain_errors,
    label_value_errors,
    qualified_name_errors,
)

QUOTA_RESERVED = "QuotaReserved"
ANNOTATION_SIZE_LIMIT = 256 * 1024  # apimachinery TotalAnnotationSizeLimitB


# ------------------------------------------------------------------------------ raw access ---

def raw(model, path: tuple, default: Any = None) -> Any:
    """The raw value at ``path`` inside the model's source object."""
    return get_in(model.source.data, tuple(path), default)


def given(model, path: tuple) -> bool:
    """Present with a non-null value (the API server prunes explicit nulls of optional fields)."""
    return raw(model, path) is not None


def as_list(value: Any) -> list:
    return value if isinstance(value, list) else []


def as_dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def text(value: Any) -> str:
    """How a YAML scalar reaches the API server as a string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return getattr(value, "raw", None) or str(value)


def quote(value: Any) -> str:
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def quoted_list(items) -> str:
    return ", ".join(quote(i) for i in items)


def podset_names(model) -> list[str]:
    """``spec.podSets[].name`` with the CRD default ``main`` applied."""
    names = []
    for ps in as_list(raw(model, ("spec", "podSets"))):
        name = as_dict(ps).get("name")
        names.append(name if isinstance(name, str) and name else "main")
    return names


def quota_reserved(model) -> bool:
    """``workload.HasQuotaReservation``: the (first) QuotaReserved condition has status True."""
    for c in as_list(raw(model, ("status", "conditions"))):
        c = as_dict(c)
        if c.get("type") == QUOTA_RESERVED:
            return text(c.get("status")) == "True"
    return False


def any_quota_reserved_true(model) -> bool:
    """The CEL rules' test: some condition of type QuotaReserved has status True."""
    return any(
        as_dict(c).get("type") == QUOTA_RESERVED and text(as_dict(c).get("status")) == "True"
        for c in as_list(raw(model, ("status", "conditions")))
    )


# --------------------------------------------------------------------- labels, annotations ---

def label_map_problems(raw_map: Any) -> Iterator[tuple[str, str]]:
    """``metav1validation.ValidateLabels``: (bad value, message) for each bad key or value."""
    if not isinstance(raw_map, dict):
        return
    for k, v in raw_map.items():
        key = text(k)
        errs = qualified_name_errors(key)
        if errs:
            yield key, "; ".join(errs)
        if isinstance(v, (dict, list)):
            continue  # a type error: the schema reports it
        value = text(v)
        errs = label_value_errors(value)
        if errs:
            yield value, "; ".join(errs)


def annotation_problems(raw_map: Any) -> Iterator[tuple[str, str, str]]:
    """``apivalidation.ValidateAnnotations``: (type, bad value, message).  Keys are qualified names
    checked lower-cased; keys plus values may total at most 256 KiB."""
    if not isinstance(raw_map, dict):
        return
    size = 0
    for k, v in raw_map.items():
        key = text(k)
        size += len(key.encode()) + len(text(v).encode())
        for msg in qualified_name_errors(key.lower()):
            yield "Invalid", key, msg
    if size > ANNOTATION_SIZE_LIMIT:
        yield "TooLong", "", f"must have at most {ANNOTATION_SIZE_LIMIT} bytes (keys and values total {size} bytes)"


# ---------------------------------------------------------------------------- tolerations ---

TOLERATION_RULES = (
    "operator must be Exists when 'key' is empty, which means 'match all values and all keys'",
    "effect must be 'NoExecute' when 'tolerationSeconds' is set",
    "supported toleration values: 'Equal'(default), 'Exists'",
    "a value must be empty when 'operator' is 'Exists'",
    "supported taint effect values: 'NoSchedule', 'PreferNoSchedule', 'NoExecute'",
)


def toleration_cel_problems(tolerations: Any) -> list[tuple[str, list[int]]]:
    """The five CEL rules on a toleration list (Kueue CRDs): (rule message, offending indices).
    Each rule is one ``self.all(...)`` over the list, so it fails once for the whole list."""
    out: list[tuple[str, list[int]]] = []
    items = [as_dict(t) for t in as_list(tolerations)]

    def has(t: dict, k: str) -> bool:
        return t.get(k) is not None

    checks = (
        lambda t: has(t, "key") or t.get("operator") == "Exists",
        lambda t: not has(t, "tolerationSeconds") or t.get("effect") == "NoExecute",
        lambda t: not has(t, "operator") or t.get("operator") in ("Equal", "Exists"),
        lambda t: not (t.get("operator") == "Exists") or not has(t, "value"),
        lambda t: not has(t, "effect") or t.get("effect") in ("NoSchedule", "PreferNoSchedule", "NoExecute"),
    )
    for msg, ok in zip(TOLERATION_RULES, checks, strict=True):
        bad = [i for i, t in enumerate(items) if not ok(t)]
        if bad:
            out.append((msg, bad))
    return out


# ------------------------------------------------------------------------------ resources ---

def podset_resource_entries(ps: Any, base: tuple) -> Iterator[tuple[tuple, str, Any, str]]:
    """Every requests/limits entry of a pod-set template that Kueue's webhook checks:
    init containers, containers, and pod-level ``spec.resources``.

    Yields (path of the map entry, resource name, raw value, human location)."""
    spec = as_dict(as_dict(as_dict(ps).get("template")).get("spec"))
    tpath = base + ("template", "spec")
    for field_name in ("initContainers", "containers"):
        for k, c in enumerate(as_list(spec.get(field_name))):
            c = as_dict(c)
            res = as_dict(c.get("resources"))
            cname = c.get("name")
            where = f"{field_name}[{k}]" + (f" ({cname})" if isinstance(cname, str) and cname else "")
            for kind in ("requests", "limits"):
                for rname, v in as_dict(res.get(kind)).items():
                    yield tpath + (field_name, k, "resources", kind, str(rname)), str(rname), v, f"{where} {kind}"
    res = as_dict(spec.get("resources"))
    for kind in ("requests", "limits"):
        for rname, v in as_dict(res.get(kind)).items():
            yield tpath + ("resources", kind, str(rname)), str(rname), v, f"pod-level {kind}"


def parse_quantity(value: Any) -> Quantity | None:
    if value is None:
        return None
    try:
        return Quantity.parse(value)
    except QuantityError:
        return None


def amount(resource: str, q: Quantity) -> int:
    """Kueue's integer amount (``resources.ResourceValue``): cpu in milli-units, everything else in
    whole units, both rounded up."""
    return q.milli_value() if resource == "cpu" else q.value()


_BINARY_RESOURCES = ("memory", "ephemeral-storage")


def fmt_amount(resource: str, value: int) -> str:
    """Render an amount the way Kueue prints it (kueue-scheduling.md §2.1)."""
    if resource == "cpu":
        return format_nanos(value * 10**6)
    binary = resource in _BINARY_RESOURCES or resource.startswith("hugepages-")
    return format_nanos(value * 10**9, binary=binary)


def find_request_path(ps: Any, base: tuple, resource: str) -> tuple:
    """The first place a pod-set template requests ``resource`` (for pointing a finding at it)."""
    for path, rname, _v, _where in podset_resource_entries(ps, base):
        if rname == resource:
            return path
    return base


# ------------------------------------------------------------------------------ durations ---

_DURATION_PART = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)")
_UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}


def parse_duration(value: Any) -> float | None:
    """Go ``time.ParseDuration`` (as used for metav1.Duration), in seconds; None if unparsable."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return None  # metav1.Duration only decodes from a string
    s = str(value).strip()
    if not s:
        return None
    sign = 1.0
    if s[0] in "+-":
        sign = -1.0 if s[0] == "-" else 1.0
        s = s[1:]
    if s == "0":
        return 0.0
    pos, total = 0, 0.0
    while pos < len(s):
        m = _DURATION_PART.match(s, pos)
        if not m:
            return None
        total += float(m.group(1)) * _UNIT_SECONDS[m.group(2)]
        pos = m.end()
    return sign * total if pos else None


# --------------------------------------------------------------------- admission-gated-by ---

HTTP_PATH_FMT = r"[A-Za-z0-9/\-._~%!$&'()*+,;=:]+"
_HTTP_PATH = re.compile("^" + HTTP_PATH_FMT + "$")


def domain_prefixed_path_errors(value: str) -> list[str]:
    """``validation.IsDomainPrefixedPath`` (k8s.io/apimachinery)."""
    if not value:
        return ["Required value"]
    segments = value.split("/", 1)
    if len(segments) != 2 or not segments[0] or not segments[1]:
        return ['must be a domain-prefixed path (such as "acme.io/foo")']
    host, path = segments
    errs = [f"{quote(host)}: {e}" for e in dns1123_subdomain_errors(host)]
    if not _HTTP_PATH.match(path):
        errs.append(f"{quote(path)}: Invalid path (regex used for validation is '{HTTP_PATH_FMT}')")
    return errs
