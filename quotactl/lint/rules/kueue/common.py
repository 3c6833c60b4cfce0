"""Shared helpers for the Kueue rules: raw-data access, Workload pod sets and conditions, and the
findings several rules build the same way (Kueue's amounts are ``quotactl.kueue.amounts``).

Kubernetes' own validation (labels, selectors, annotations, tolerations, message rendering) is in
``quotactl.lint.k8s_checks``; lenient readers of raw values (``as_list``, ``as_dict``, ``as_int``,
``as_quantity``) are in ``quotactl.model.coerce``.

Not a rule module: it registers nothing.  Every helper tolerates input of the wrong shape
(schema validation reports that); they never raise on user data.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from quotactl.lint.k8s_checks import annotation_problems, label_map_problems, quote, scalar_text
from quotactl.lint.rule import Finding
from quotactl.load.document import get_in
from quotactl.model.coerce import as_dict, as_int, as_list

QUOTA_RESERVED = "QuotaReserved"


# ------------------------------------------------------------------------------ raw access ---

def raw(model, path: tuple, default: Any = None) -> Any:
    """The raw value at ``path`` inside the model's source object (``default`` when absent)."""
    return get_in(model.source.data, tuple(path), default)


def given(model, path: tuple) -> bool:
    """Whether ``path`` is present with a non-null value.  The API server prunes explicit nulls of
    non-nullable fields, so ``field: null`` behaves like an omitted field."""
    return raw(model, path) is not None


# -------------------------------------------------------------------------------- findings ---

def invalid_value(path: tuple, value: str, errs: list[str], hint: str, sep: str = "; ") -> Iterator[Finding]:
    """The webhook's ``field.Invalid(path, value, strings.Join(errs, sep))``, when there are errors."""
    if errs:
        yield Finding(path, f"Invalid value: {quote(value)}: {sep.join(errs)}", type="Invalid", hint=hint)


def label_map_findings(raw_map: Any, path: tuple, hint: str | None = None) -> Iterator[Finding]:
    """``ValidateLabels`` on a Workload label map: one finding per bad key or value, at the map."""
    for p in label_map_problems(raw_map, path):
        yield Finding(p.path, f"{quote(p.bad_value)}: {p.message}", hint=hint)


def annotation_findings(raw_map: Any, path: tuple) -> Iterator[Finding]:
    """``ValidateAnnotations`` on a Workload annotation map: one finding per problem, at the map."""
    for typ, bad, msg in annotation_problems(raw_map):
        yield Finding(path, f"{quote(bad)}: {msg}" if bad else msg, type=typ)


# -------------------------------------------------------------------------------- pod sets ---

def raw_podsets(wl) -> list:
    """``spec.podSets`` as written (an empty list when it is not a list)."""
    return as_list(raw(wl, ("spec", "podSets")))


def podsets(wl) -> Iterator[tuple[int, dict]]:
    """(index, pod set) for every ``spec.podSets`` entry; an entry that is not a map reads as ``{}``."""
    for i, ps in enumerate(raw_podsets(wl)):
        yield i, as_dict(ps)


def podset_name(ps: dict) -> str:
    """A pod set's name with the CRD default ``main`` applied."""
    name = ps.get("name")
    return name if isinstance(name, str) and name else "main"


def podset_count(ps: dict) -> int | None:
    """A pod set's count with the CRD default 1 applied (None for a count of the wrong type)."""
    return 1 if ps.get("count") is None else as_int(ps.get("count"))


def podset_names(model) -> list[str]:
    """``spec.podSets[].name`` with the CRD default ``main`` applied."""
    return [podset_name(ps) for _, ps in podsets(model)]


# ------------------------------------------------------------------------------ conditions ---

def quota_reserved(model) -> bool:
    """``workload.HasQuotaReservation``: the (first) QuotaReserved condition has status True."""
    for c in as_list(raw(model, ("status", "conditions"))):
        c = as_dict(c)
        if c.get("type") == QUOTA_RESERVED:
            return scalar_text(c.get("status")) == "True"
    return False


def any_quota_reserved_true(model) -> bool:
    """The CEL rules' test: some condition of type QuotaReserved has status True."""
    return any(
        as_dict(c).get("type") == QUOTA_RESERVED and scalar_text(as_dict(c).get("status")) == "True"
        for c in as_list(raw(model, ("status", "conditions")))
    )


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
