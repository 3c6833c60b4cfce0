"""JSON Schema validation of raw objects, with every error turned into a Diagnostic at the
field's source line.

Schemas live in ``schemas/`` (JSON Schema 2020-12, written for quotactl).  Conventions:

* ``format`` values quotactl asserts: ``quantity``, ``dns-subdomain``, ``dns-label``,
  ``label-key``, ``label-value``, ``k8s-time``, ``int32``, ``int64``.
* ``x-kubernetes-list-map-keys: [name]`` on an array: items must be unique by those keys (a
  missing key takes the item schema's ``default``), like the API server's list-map check.
* ``x-kubernetes-list-type: set``: items unique.
* Unknown-field detection (and its "did you mean") sees the ``properties`` declared in the same
  schema object as ``additionalProperties: false``: closed objects are not composed with allOf.
* Null values of object fields are dropped before validation, as the API server prunes them.
* Validation rules that need more than one field (CEL and webhook rules) are lint rules, not
  schema keywords.
"""

from __future__ import annotations

import difflib
import json
import re
from functools import lru_cache
from typing import Any

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.lint.schema_fast import (
    SCHEMA_BASE_URI,
    list_map_duplicates,
    schema_documents,
    schemas_root,  # noqa: F401  (re-exported: where the schemas live)
    set_duplicates,
    valid_check,
)
from quotactl.lint.schema_formats import CHECKS, FormatProblem
from quotactl.load.document import format_path
from quotactl.load.objects import KubeObject
from quotactl.model.quantity import Quantity, QuantityError

# (group, kind) -> versions served, with the schema path pattern.
SERVED = {
    ("kueue.x-k8s.io", "ResourceFlavor"): ("v1beta1", "v1beta2"),
    ("kueue.x-k8s.io", "ClusterQueue"): ("v1beta1", "v1beta2"),
    ("kueue.x-k8s.io", "Cohort"): ("v1alpha1", "v1beta1", "v1beta2"),
    ("kueue.x-k8s.io", "LocalQueue"): ("v1beta1", "v1beta2"),
    ("kueue.x-k8s.io", "WorkloadPriorityClass"): ("v1beta1", "v1beta2"),
    ("kueue.x-k8s.io", "Workload"): ("v1beta1", "v1beta2"),
    ("kueue.x-k8s.io", "AdmissionCheck"): ("v1beta1", "v1beta2"),
    ("kueue.x-k8s.io", "Topology"): ("v1alpha1", "v1beta1", "v1beta2"),
    ("kueue.x-k8s.io", "MultiKueueCluster"): ("v1beta1", "v1beta2"),
    ("kueue.x-k8s.io", "MultiKueueConfig"): ("v1beta1", "v1beta2"),
    ("kueue.x-k8s.io", "ProvisioningRequestConfig"): ("v1beta1", "v1beta2"),
    ("config.kueue.x-k8s.io", "Configuration"): ("v1beta1", "v1beta2"),
    # Kueue v0.20's alpha kind (ConfigurablePreemptions): checked, kept out of the model (load.objects)
    ("kueue.x-k8s.io", "PreemptionConfig"): ("v1alpha1",),
    ("scheduling.k8s.io", "PriorityClass"): ("v1",),
    ("", "Namespace"): ("v1",),
}


def schema_path(group: str, version: str, kind: str) -> str:
    if group == "kueue.x-k8s.io":
        return f"kueue/{version}/{kind.lower()}.json"
    if group == "config.kueue.x-k8s.io":
        return f"kueue/config/{version}/{kind.lower()}.json"
    if group == "":
        return f"kubernetes/{version}/{kind.lower()}.json"
    return f"kubernetes/{group}/{version}/{kind.lower()}.json"


@lru_cache(maxsize=1)
def _registry():
    from referencing import Registry, Resource

    return Registry().with_resources(
        (uri, Resource.from_contents(contents)) for uri, contents in schema_documents().items())


# --------------------------------------------------------------------------- keywords --------

def _list_map_keys(validator, keys, instance, schema):
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "array"):
        return
    item_schema = schema.get("items") if isinstance(schema.get("items"), dict) else {}
    if "$ref" in item_schema:
        try:
            item_schema = validator._resolver.lookup(item_schema["$ref"]).contents
        except Exception:
            item_schema = {}
    for i, ident, first in list_map_duplicates(keys, instance, item_schema):
        shown = ", ".join(f"{k}: {v!r}" for k, v in zip(keys, ident, strict=True))
        yield ValidationError(
            f"duplicate entry ({shown}); first at index {first}",
            validator="x-kubernetes-list-map-keys", path=[i, keys[0]] if len(keys) == 1 else [i],
        )


def _list_set(validator, kind, instance, schema):
    from jsonschema.exceptions import ValidationError

    if kind != "set" or not validator.is_type(instance, "array"):
        return
    for i in set_duplicates(instance):
        yield ValidationError(f"duplicate value {instance[i]!r}", validator="x-kubernetes-list-type", path=[i])


@lru_cache(maxsize=1)
def _validator_class():
    from jsonschema import Draft202012Validator
    from jsonschema import validators as jsv

    return jsv.extend(
        Draft202012Validator,
        {"x-kubernetes-list-map-keys": _list_map_keys, "x-kubernetes-list-type": _list_set},
    )


@lru_cache(maxsize=1)
def _format_checker():
    from jsonschema import FormatChecker

    checker = FormatChecker(formats=())
    for name, check in CHECKS.items():
        checker.checks(name, raises=(FormatProblem,))(check)
    return checker


# ------------------------------------------------------------------------- validation --------

@lru_cache(maxsize=64)
def _validator_for(rel_path: str):
    registry = _registry()
    uri = SCHEMA_BASE_URI + rel_path
    try:
        schema = registry.contents(uri)
    except Exception:
        return None
    return _validator_class()(schema, registry=registry, format_checker=_format_checker())


# Schema keyword -> (quotactl code, Kubernetes error type)
_KEYWORD_CODES = {
    "required": ("KQ001", "Required"),
    "enum": ("KQ002", "NotSupported"),
    "const": ("KQ002", "NotSupported"),
    "type": ("KQ003", "Invalid"),
    "pattern": ("KQ004", "Invalid"),
    "minimum": ("KQ004", "Invalid"),
    "maximum": ("KQ004", "Invalid"),
    "exclusiveMinimum": ("KQ004", "Invalid"),
    "exclusiveMaximum": ("KQ004", "Invalid"),
    "minLength": ("KQ004", "Invalid"),
    "minItems": ("KQ004", "Invalid"),
    "minProperties": ("KQ004", "Invalid"),
    "format": ("KQ004", "Invalid"),
    "maxItems": ("KQ005", "TooMany"),
    "maxProperties": ("KQ005", "TooMany"),
    "maxLength": ("KQ005", "TooLong"),
    "x-kubernetes-list-map-keys": ("KQ006", "Duplicate"),
    "x-kubernetes-list-type": ("KQ006", "Duplicate"),
    "uniqueItems": ("KQ006", "Duplicate"),
    "additionalProperties": ("KQ007", "FieldValueUnknown"),
    "unevaluatedProperties": ("KQ007", "FieldValueUnknown"),
}


# The last Kueue versions that served kueue.x-k8s.io/v1alpha1 for a kind (KQ011).
_V1ALPHA1_NOTE = {
    "Cohort": "kueue.x-k8s.io/v1alpha1 Cohort is served only by Kueue v0.9-v0.12 (checked with those rules); "
              "use v1beta2 with spec.parentName",
    "Topology": "kueue.x-k8s.io/v1alpha1 Topology is served only by Kueue v0.9-v0.13 (checked with those rules); "
                "use v1beta2",
}


def validate_object(obj: KubeObject) -> list[Diagnostic]:
    """Schema diagnostics for one object (also: apiVersion not served)."""
    key = (obj.group, obj.kind)
    served = SERVED.get(key)
    if served is None:
        return []
    if obj.version not in served:
        pos = obj.ref.pos(("apiVersion",))
        versions = ", ".join(f"{obj.group + '/' if obj.group else ''}{v}" for v in served)
        return [Diagnostic("KQ010", Severity.ERROR, f"{obj.api_version} is not a served version of {obj.kind} "
                           f"(served: {versions})", obj.ref.file, pos.line, pos.column, object=obj.display,
                           field="apiVersion", type="Invalid", input_error=False,
                           hint=f"did you mean {obj.group + '/' if obj.group else ''}{served[-1]}?")]
    rel_path = schema_path(obj.group, obj.version, obj.kind)
    fast = valid_check(rel_path)
    if fast is None:
        return []
    diags = []
    if obj.group == "kueue.x-k8s.io" and obj.version == "v1alpha1" and obj.kind in _V1ALPHA1_NOTE:
        pos = obj.ref.pos(("apiVersion",))
        diags.append(Diagnostic("KQ011", Severity.WARNING, _V1ALPHA1_NOTE.get(obj.kind, _V1ALPHA1_NOTE["Cohort"]),
                                obj.ref.file, pos.line, pos.column, object=obj.display, field="apiVersion"))
    if fast(obj.data):
        return diags  # proven valid: no schema error to describe
    for err in _validator_for(rel_path).iter_errors(obj.data):
        diags.extend(_to_diagnostics(err, obj))
    return diags


def _drop_nulls(value: Any) -> Any:
    """The API server prunes null values of object fields before validating a custom resource."""
    if isinstance(value, dict):
        return {k: _drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_nulls(v) for v in value]
    return value


def _leaf_errors(err) -> list:
    """For anyOf/oneOf, descend into the most relevant branch's errors."""
    if err.validator in ("anyOf", "oneOf") and err.context:
        # Prefer the branch whose type matched (its errors are about content, not type).
        by_branch: dict[int, list] = {}
        for sub in err.context:
            by_branch.setdefault(sub.schema_path[0] if sub.schema_path else 0, []).append(sub)
        typed = [errs for errs in by_branch.values() if not any(e.validator == "type" for e in errs)]
        if typed:
            return [leaf for e in typed[0] for leaf in _leaf_errors(e)]
        return [err]
    return [err]


def _to_diagnostics(err, obj: KubeObject) -> list[Diagnostic]:
    out = []
    for leaf in _leaf_errors(err):
        out.extend(_leaf_to_diagnostics(leaf, obj))
    return out


def _is_quantity_schema(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    if schema.get("format") == "quantity":
        return True
    return any(isinstance(b, dict) and b.get("format") == "quantity" for b in schema.get("anyOf", []))


def _leaf_to_diagnostics(err, obj: KubeObject) -> list[Diagnostic]:
    path = tuple(err.absolute_path)
    keyword = err.validator
    code, ktype = _KEYWORD_CODES.get(keyword, ("KQ004", "Invalid"))
    message = err.message
    hint = None

    if keyword == "required":
        missing = _missing_property(err)
        diag_path = path + (missing,) if missing else path
        pos = obj.ref.pos(path)
        message = f"required field {missing!r} is missing" if missing else err.message
        return [_diag(code, message, obj, diag_path, pos, ktype)]
    if keyword in ("additionalProperties", "unevaluatedProperties"):
        out = []
        allowed = sorted((err.schema.get("properties") or {}).keys()) if isinstance(err.schema, dict) else []
        extras = [k for k in (err.instance or {}) if k not in allowed] if isinstance(err.instance, dict) else []
        for extra in extras:
            close = difflib.get_close_matches(str(extra), allowed, n=1, cutoff=0.6)
            msg = f"unknown field {extra!r}"
            fix_hint = f"did you mean {close[0]!r}?" if close else (
                f"known fields here: {', '.join(allowed)}" if allowed and len(allowed) <= 12 else None)
            msg += f"; {fix_hint}" if close else ""
            note = ("Kueue decodes its configuration strictly: the manager does not start" if obj.kind == "Configuration"
                    else "the API server rejects it (kubectl's default strict field validation) or silently drops it")
            out.append(_diag(code, f"{msg} ({note})", obj, path + (extra,), obj.ref.pos(path + (extra,)), ktype,
                             hint=None if close else fix_hint))
        return out
    if keyword == "format" and err.validator_value == "quantity" or (keyword == "type" and _is_quantity_schema(err.schema)):
        code, ktype = "KQ008", "Invalid"
        try:
            Quantity.parse(err.instance)
            message = f"{err.instance!r} is not a valid quantity"
        except QuantityError as exc:
            message = f"invalid quantity: {exc}"
        hint = "write an integer, or a string such as \"500m\", \"1.5\", \"2Gi\""
    elif keyword == "format":
        message = str(err.cause) if err.cause else err.message
        if err.validator_value in ("dns-subdomain", "dns-label") and path and path[-1] == "name" and len(path) == 2:
            code = "KQ009"
    elif keyword == "enum":
        options = ", ".join(json.dumps(v) for v in err.validator_value)
        close = difflib.get_close_matches(str(err.instance), [str(v) for v in err.validator_value], n=1, cutoff=0.5)
        message = f"unsupported value {json.dumps(err.instance)}: supported values: {options}"
        if close:
            message += f"; did you mean {json.dumps(close[0])}?"
    elif keyword == "const":
        message = f"unsupported value {json.dumps(err.instance)}: must be {json.dumps(err.validator_value)}"
    elif keyword == "type":
        want = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        message = f"must be of type {' or '.join(want)}, got {_json_type(err.instance)} {_short(err.instance)}"
    elif keyword == "maxItems":
        message = f"must have at most {err.validator_value} items (has {len(err.instance)})"
    elif keyword == "minItems":
        message = f"must have at least {err.validator_value} item{'s' if err.validator_value != 1 else ''}"
    elif keyword == "maxProperties":
        message = f"must have at most {err.validator_value} entries (has {len(err.instance)})"
    elif keyword == "maxLength":
        message = f"may not be more than {err.validator_value} characters (has {len(err.instance)})"
    elif keyword == "minLength":
        message = "must not be empty" if err.validator_value == 1 else f"must be at least {err.validator_value} characters"
    elif keyword == "minimum":
        message = f"must be greater than or equal to {err.validator_value}"
    elif keyword == "maximum":
        message = f"must be less than or equal to {err.validator_value}"
    elif keyword == "pattern":
        message = f"{_short(err.instance)} should match '{err.validator_value}'"
    return [_diag(code, message, obj, path, obj.ref.pos(path, value=True), ktype, hint=hint)]


def _diag(code, message, obj: KubeObject, path, pos, ktype, hint=None) -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, message, obj.ref.file, pos.line, pos.column, object=obj.display,
                      field=format_path(path) or None, type=ktype, hint=hint)


def _missing_property(err) -> str | None:
    m = re.match(r"^'([^']+)' is a required property", err.message)
    if m:
        return m.group(1)
    if isinstance(err.validator_value, list) and isinstance(err.instance, dict):
        for p in err.validator_value:
            if p not in err.instance:
                return p
    return None


def _json_type(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def _short(v) -> str:
    text = json.dumps(getattr(v, "raw", None) or v, default=str) if not isinstance(v, (dict, list)) else (
        "{...}" if isinstance(v, dict) else "[...]")
    return text if len(text) <= 60 else text[:57] + "..."
