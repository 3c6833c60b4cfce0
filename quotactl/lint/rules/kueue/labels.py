"""Shared helpers for the Kueue rules: label-map and label-selector validation with Kubernetes'
exact messages (k8s.io/apimachinery ``ValidateLabels`` / ``ValidateLabelSelector``), raw-data
access, and small formatting helpers.

Not a rule module: it registers nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from quotactl.load.document import get_in
from quotactl.model.validation import label_value_errors, qualified_name_errors

_MISSING = object()


def raw(model, path: tuple, default: Any = None) -> Any:
    """The raw value at ``path`` inside the model's source object (``default`` when absent)."""
    return get_in(model.source.data, tuple(path), default)


def given(model, path: tuple) -> bool:
    """Whether ``path`` is present with a non-null value.  The API server prunes explicit nulls of
    non-nullable fields, so ``field: null`` behaves like an omitted field."""
    return get_in(model.source.data, tuple(path), None) is not None


def label_key_errors(key: str) -> list[str]:
    """``ValidateLabelName``: a label key is a qualified name (``[prefix/]name``)."""
    return qualified_name_errors(key)


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


@dataclass(frozen=True)
class LabelProblem:
    path: tuple
    message: str
    bad_value: str
    type: str = "Invalid"
    is_key: bool = False


def label_map_problems(raw_map: Any, path: tuple) -> Iterator[LabelProblem]:
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


def go_list(items) -> str:
    """A Go ``%v`` rendering of a string slice: ``[a b c]``."""
    return "[" + " ".join(str(i) for i in items) + "]"


def quoted_list(items) -> str:
    """Kubernetes' NotSupported rendering: ``"a", "b"``."""
    return ", ".join(quote(i) for i in items)
