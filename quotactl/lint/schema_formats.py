"""The ``format`` values quotactl's schemas assert (``quantity``, ``dns-subdomain``, ...): each a
check that returns True or raises ``FormatProblem`` with the message. Used by jsonschema's format
checker and by the compiled validity check alike."""

from __future__ import annotations

import re

from quotactl.model.quantity import Quantity, QuantityError
from quotactl.model.validation import (
    is_dns1123_label,
    is_dns1123_subdomain,
    is_label_value,
    qualified_name_errors,
)

CHECKS: dict = {}  # format name -> check (True, or raises FormatProblem with the message)


class FormatProblem(ValueError):
    pass


def _format(name: str):
    def deco(fn):
        CHECKS[name] = fn
        return fn
    return deco


@_format("quantity")
def _check_quantity(value) -> bool:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return True  # the type keyword reports it
    if isinstance(value, float) and not value.is_integer():
        return True  # a YAML float with a fraction fails the type keyword; report it once
    try:
        Quantity.parse(value)
    except QuantityError as exc:
        raise FormatProblem(str(exc)) from exc
    return True


@_format("dns-subdomain")
def _check_subdomain(value) -> bool:
    if not isinstance(value, str):
        return True
    if not is_dns1123_subdomain(value):
        raise FormatProblem(
            f"{value!r} is not a valid name: a lowercase RFC 1123 subdomain must consist of lower case "
            "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character "
            "(regex '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        )
    return True


@_format("dns-label")
def _check_label(value) -> bool:
    if not isinstance(value, str):
        return True
    if not is_dns1123_label(value):
        raise FormatProblem(
            f"{value!r} is not a valid name: a lowercase RFC 1123 label must consist of lower case "
            "alphanumeric characters or '-', start and end with an alphanumeric character, and be at most "
            "63 characters (regex '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
        )
    return True


@_format("label-key")
def _check_label_key(value) -> bool:
    if not isinstance(value, str):
        return True
    errs = qualified_name_errors(value)
    if errs:
        raise FormatProblem(f"{value!r}: " + "; ".join(errs))
    return True


@_format("label-value")
def _check_label_value(value) -> bool:
    if not isinstance(value, str):
        return True
    if not is_label_value(value):
        raise FormatProblem(
            f"{value!r}: a valid label must be an empty string or consist of alphanumeric characters, '-', "
            "'_' or '.', and must start and end with an alphanumeric character (at most 63 characters)"
        )
    return True


_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


@_format("k8s-time")
def _check_time(value) -> bool:
    if isinstance(value, str) and not _TIME.match(value):
        raise FormatProblem(f"{value!r} is not an RFC 3339 time (e.g. 2026-01-01T00:00:00Z)")
    return True


@_format("int32")
def _check_int32(value) -> bool:
    if isinstance(value, int) and not isinstance(value, bool) and not -(2**31) <= value < 2**31:
        raise FormatProblem(f"{value} is out of the int32 range (-2147483648..2147483647)")
    return True


@_format("int64")
def _check_int64(value) -> bool:
    if isinstance(value, int) and not isinstance(value, bool) and not -(2**63) <= value < 2**63:
        raise FormatProblem(f"{value} is out of the int64 range")
    return True
