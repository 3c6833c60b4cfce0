"""Typed reads of a raw job object.  A value of the wrong type raises ``Malformed`` with the path
of the field, so the caller can report it at its source line instead of failing later."""

from __future__ import annotations

from typing import Any

from quotactl.load.document import get_in
from quotactl.model.quantity import Quantity, QuantityError

Path = tuple


class Malformed(Exception):
    """The object is not one the API server would accept: ``path`` names the offending field."""

    def __init__(self, path: Path, message: str):
        super().__init__(message)
        self.path = tuple(path)
        self.message = message


def opt_dict(data: dict, path: Path) -> dict:
    value = get_in(data, path)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Malformed(path, f"must be an object, not {_type_name(value)}")
    return value


def req_dict(data: dict, path: Path, what: str) -> dict:
    value = get_in(data, path)
    if value is None:
        raise Malformed(path, f"missing {what}")
    if not isinstance(value, dict):
        raise Malformed(path, f"{what} must be an object, not {_type_name(value)}")
    return value


def opt_list(data: dict, path: Path) -> list:
    value = get_in(data, path)
    if value is None:
        return []
    if not isinstance(value, list):
        raise Malformed(path, f"must be a list, not {_type_name(value)}")
    return value


def opt_str(data: dict, path: Path) -> str | None:
    value = get_in(data, path)
    if value is None:
        return None
    if not isinstance(value, str):
        raise Malformed(path, f"must be a string, not {_type_name(value)}")
    return value


INT32_MAX = 2**31 - 1


def opt_int(data: dict, path: Path, default: int | None, minimum: int | None = 0) -> int | None:
    """An integer field (``default`` when unset); below ``minimum`` is invalid, as the API server
    says, and so is a value over 2**31-1: every count these objects carry (replicas, size,
    parallelism, completions, numNodes, ...) is an int32 in its API."""
    value = get_in(data, path)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise Malformed(path, f"must be an integer, not {_type_name(value)}")
    if minimum is not None and value < minimum:
        raise Malformed(path, f"must be greater than or equal to {minimum}, not {value}")
    if value > INT32_MAX:
        raise Malformed(path, f"must be at most {INT32_MAX} (a 32-bit integer), not {value}")
    return value


def int_text(value: str, path: Path, minimum: int) -> int:
    """A label or annotation that holds an integer (Kueue parses these with strconv.Atoi)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise Malformed(path, f"must be an integer, not {value!r}") from None
    if number < minimum:
        raise Malformed(path, f"must be at least {minimum}, not {number}")
    return number


def check_quantities(data: dict, path: Path) -> None:
    for name, value in opt_dict(data, path).items():
        try:
            Quantity.parse(value)
        except QuantityError as exc:
            raise Malformed(path + (name,), f"invalid quantity: {exc}") from None


def _type_name(value: Any) -> str:
    return {list: "a list", dict: "an object", str: "a string", bool: "a boolean"}.get(type(value), type(value).__name__)
