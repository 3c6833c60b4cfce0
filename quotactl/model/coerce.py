"""Lenient readers for raw YAML values.

The typed models are built from input that may be wrong in any way; schema validation reports
those problems.  These helpers return ``None`` (or an empty value) for anything of the wrong
type so model building never fails.
"""

from __future__ import annotations

from typing import Any

from quotactl.model.quantity import Quantity, QuantityError


def as_dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list:
    return value if isinstance(value, list) else []


def as_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def as_bool(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def as_quantity(value: Any) -> Quantity | None:
    if value is None:
        return None
    try:
        return Quantity.parse(value)
    except QuantityError:
        return None


def str_map(value: Any) -> dict[str, str]:
    """A map of strings; non-string values are rendered as YAML would print them. A map that is
    all strings already is returned as it is, not copied (a big input's labels would be held twice);
    callers read it and never change it."""
    raw = as_dict(value)
    if all(type(k) is str and type(v) is str for k, v in raw.items()):
        return raw
    out: dict[str, str] = {}
    for k, v in raw.items():
        if isinstance(v, bool):
            out[str(k)] = "true" if v else "false"
        elif v is None:
            out[str(k)] = ""
        else:
            out[str(k)] = getattr(v, "raw", None) or str(v)
    return out


def quantity_map(value: Any) -> dict[str, Quantity]:
    out: dict[str, Quantity] = {}
    for k, v in as_dict(value).items():
        q = as_quantity(v)
        if q is not None:
            out[str(k)] = q
    return out
