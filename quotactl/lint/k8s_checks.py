"""Kubernetes validation with the API server's exact messages, for lint rules of any dialect.

Label maps and label selectors (k8s.io/apimachinery ``ValidateLabels`` / ``ValidateLabelSelector``),
annotations (``ValidateAnnotations``), the five CEL rules on a toleration list, domain-prefixed paths,
Go durations, and the way Kubernetes renders values in its messages (``%q``, ``%v``, NotSupported
lists).

Not a rule module: it registers nothing.  Every helper tolerates input of the wrong shape (schema
validation reports that); they never raise on user data.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from quotactl.model.coerce import as_dict, as_list
from quotactl.model.validation import dns1123_subdomain_errors, label_value_errors, qualified_name_errors

# ------------------------------------------------------------------------------ rendering ---


def scalar_text(value: Any) -> str:
    """How a YAML scalar reaches the API server as a string (booleans and null as YAML prints them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return getattr(value, "raw", None) or str(value)


def quote(value: Any) -> str:
    """Go's %q-ish rendering used in Kubernetes messages."""
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def quoted_list(items) -> str:
    """Kubernetes' NotSupported rendering: ``"a", "b"``."""
    return ", ".join(quote(i) for i in items)


def go_list(items) -> str:
    """A Go ``%v`` rendering of a string slice: ``[a b c]``."""
    return "[" + " ".join(str(i) for i in items) + "]"


# ---------------------------------------------------------------------- labels, selectors ---

def label_key_errors(key: str) -> list[str]:
    """``ValidateLabelName``: a label key is a qualified name (``[prefix/]name``)."""
    return qualified_name_errors(key)


@dataclass(frozen=True)
class LabelProblem:
    path: tuple
    message: str
    bad_value: str
    type: str = "Invalid"
    is_key: bool = False


def label_map_problems(raw_map: Any, path: tuple = ()) -> Iterator[LabelProblem]:
    """``metav1validation.ValidateLabels``: each key must be a label key and each value a label
    value; errors are reported on the map's own path with the bad key or value."""
    if not isinstance(raw_map, dict):
        return
    for k, v in raw_map.items():
        key = scalar_text(k)
        errs = label_key_errors(key)
        if errs:
            yield LabelProblem(path, "; ".join(errs), key, is_key=True)
        if isinstance(v, (dict, list)):
            continue  # a type error, reported by the schema
        value = scalar_text(v)
        errs = label_value_errors(value)
        if errs:
            yield LabelProblem(path, "; ".join(errs), value)


def selector_problems(raw_selector: Any, path: tuple) -> Iterator[LabelProblem]:
    """``metav1validation.ValidateLabelSelector`` with default options."""
    if not isinstance(raw_selector, dict):
        return
    yield from label_map_problems(raw_selector.get("matchLabels"), path + ("matchLabels",))
    exprs = raw_selector.get("matchExpressions")
    if not isinstance(exprs, list):
        return
    for i, expr in enumerate(exprs):
        if not isinstance(expr, dict):
            continue
        epath = path + ("matchExpressions", i)
        op = expr.get("operator")
        values = expr.get("values")
        vals = values if isinstance(values, list) else []
        if isinstance(op, str):  # a missing operator is a schema error (Required)
            if op in ("In", "NotIn"):
                if not vals:
                    yield LabelProblem(epath + ("values",),
                                       "must be specified when `operator` is 'In' or 'NotIn'", "", "Required")
            elif op in ("Exists", "DoesNotExist"):
                if vals:
                    yield LabelProblem(epath + ("values",),
                                       "may not be specified when `operator` is 'Exists' or 'DoesNotExist'", "",
                                       "Forbidden")
            else:
                yield LabelProblem(epath + ("operator",), "not a valid selector operator", op)
        key = expr.get("key")
        if isinstance(key, str):  # a missing key is a schema error (Required)
            errs = label_key_errors(key)
            if errs:
                yield LabelProblem(epath + ("key",), "; ".join(errs), key, is_key=True)
        for j, v in enumerate(vals):
            if isinstance(v, (dict, list)):
                continue
            value = scalar_text(v)
            errs = label_value_errors(value)
            if errs:
                yield LabelProblem(epath + ("values", j), "; ".join(errs), value)


# ---------------------------------------------------------------------------- annotations ---

ANNOTATION_SIZE_LIMIT = 256 * 1024  # apimachinery TotalAnnotationSizeLimitB


def annotation_problems(raw_map: Any) -> Iterator[tuple[str, str, str]]:
    """``apivalidation.ValidateAnnotations``: (type, bad value, message).  Keys are qualified names
    checked lower-cased; keys plus values may total at most 256 KiB."""
    if not isinstance(raw_map, dict):
        return
    size = 0
    for k, v in raw_map.items():
        key = scalar_text(k)
        size += len(key.encode()) + len(scalar_text(v).encode())
        for msg in qualified_name_errors(key.lower()):
            yield "Invalid", key, msg
    if size > ANNOTATION_SIZE_LIMIT:
        yield "TooLong", "", f"must have at most {ANNOTATION_SIZE_LIMIT} bytes (keys and values total {size} bytes)"


# ------------------------------------------------------------------------ taints, tolerations ---

TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")

TOL_KEY_EMPTY = "operator must be Exists when 'key' is empty, which means 'match all values and all keys'"
TOL_SECONDS = "effect must be 'NoExecute' when 'tolerationSeconds' is set"
TOL_OPERATOR = "supported toleration values: 'Equal'(default), 'Exists'"
TOL_VALUE = "a value must be empty when 'operator' is 'Exists'"
EFFECTS_MSG = "supported taint effect values: 'NoSchedule', 'PreferNoSchedule', 'NoExecute'"

# The CEL rules on a toleration list (Kueue CRDs), in the CRD's order.
TOLERATION_RULES = (TOL_KEY_EMPTY, TOL_SECONDS, TOL_OPERATOR, TOL_VALUE, EFFECTS_MSG)


def toleration_rule_breaks(t: dict) -> list[str]:
    """The messages of the toleration CEL rules that one toleration breaks, in ``TOLERATION_RULES``
    order.  The rules test ``has(field)``: a field given as an empty string counts as present."""
    key, op, value = t.get("key"), t.get("operator"), t.get("value")
    effect, seconds = t.get("effect"), t.get("tolerationSeconds")
    broken = (
        key is None and op != "Exists",
        seconds is not None and effect != "NoExecute",
        op is not None and op not in ("Equal", "Exists"),
        op == "Exists" and value is not None,
        effect is not None and effect not in TAINT_EFFECTS,
    )
    return [msg for msg, bad in zip(TOLERATION_RULES, broken, strict=True) if bad]


def toleration_cel_problems(tolerations: Any) -> list[tuple[str, list[int]]]:
    """The five CEL rules on a toleration list: (rule message, offending indices).  Each rule is
    one ``self.all(...)`` over the list, so it fails once for the whole list.  An entry that is not
    a map is checked as an empty toleration."""
    breaks = [toleration_rule_breaks(as_dict(t)) for t in as_list(tolerations)]
    out: list[tuple[str, list[int]]] = []
    for msg in TOLERATION_RULES:
        bad = [i for i, broken in enumerate(breaks) if msg in broken]
        if bad:
            out.append((msg, bad))
    return out


# -------------------------------------------------------------------- domain-prefixed paths ---

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
