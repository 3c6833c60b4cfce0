"""Quantities the way Kueue's scheduler holds and prints them.

Source: ``pkg/resources/amount.go: AmountFromQuantity``, ``pkg/resources/resource_formatter.go``.

* ``cpu`` is held in millicores, every other resource as Kubernetes' ``Quantity.Value()``
  (fractions rounded up, away from zero).  Amounts are plain Python ints that saturate at
  int64 instead of wrapping (Kueue's "Unlimited" sentinel, printed ``<unlimited>``).
* Messages re-render amounts as Kubernetes quantities: cpu as a milli quantity in decimal SI
  (1500 -> ``1500m``, 2000 -> ``2``, 1000000 -> ``1k``), ``memory``/``ephemeral-storage``/
  ``hugepages-*`` in canonical binary SI (``5Mi``), everything else in decimal SI.
"""

from __future__ import annotations

from quotactl.model.quantity import NANO, Quantity

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)
UNLIMITED = INT64_MAX

CPU = "cpu"
PODS = "pods"

_DECIMAL_SUFFIX = {-9: "n", -6: "u", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}
_BINARY_SUFFIX = {0: "", 1: "Ki", 2: "Mi", 3: "Gi", 4: "Ti", 5: "Pi", 6: "Ei"}


def saturate(v: int) -> int:
    """Clamp to int64 (Kueue's amounts saturate instead of overflowing)."""
    if v > INT64_MAX:
        return INT64_MAX
    if v < INT64_MIN:
        return INT64_MIN
    return v


def _ceil_div(n: int, d: int) -> int:
    """n / d rounded away from zero (Kubernetes rounds fractional values up in magnitude)."""
    q = -((-abs(n)) // d)
    return q if n >= 0 else -q


def to_amount(resource: str, q: Quantity) -> int:
    """``AmountFromQuantity``: milli for cpu, whole units (rounded up) for anything else."""
    if resource == CPU:
        return saturate(_ceil_div(q.nanos, NANO // 1000))
    return saturate(_ceil_div(q.nanos, NANO))


def is_binary_resource(resource: str) -> bool:
    return resource in ("memory", "ephemeral-storage") or resource.startswith("hugepages-")


def _strip10(value: int) -> tuple[int, int]:
    times = 0
    while value != 0 and value % 10 == 0:
        value //= 10
        times += 1
    return value, times


def _decimal_si(value: int, scale: int) -> str:
    """Go's ``Quantity.String()`` for a DecimalSI quantity ``value * 10^scale``."""
    if value == 0:
        return "0"
    mantissa, times = _strip10(value)
    exponent = scale + times
    r = exponent % 3  # Python: always 0, 1 or 2
    if r == 1:
        mantissa *= 10
        exponent -= 1
    elif r == 2:
        mantissa *= 100
        exponent -= 2
    suffix = _DECIMAL_SUFFIX.get(exponent)
    if suffix is None:
        suffix = f"e{exponent}"
    return f"{mantissa}{suffix}"


def _binary_si(value: int) -> str:
    if -1024 < value < 1024:
        return _decimal_si(value, 0)
    mantissa, exponent = value, 0
    while mantissa != 0 and mantissa % 1024 == 0 and exponent < 6:
        mantissa //= 1024
        exponent += 1
    return f"{mantissa}{_BINARY_SUFFIX[exponent]}"


def format_amount(resource: str, value: int) -> str:
    """``ResourceFormatter.AmountQuantityString``: how Kueue prints an amount in a message."""
    if value >= INT64_MAX:
        return "<unlimited>"
    if resource == CPU:
        return _decimal_si(value, -3)
    if is_binary_resource(resource):
        return _binary_si(value)
    return _decimal_si(value, 0)


def amount_to_quantity(resource: str, value: int) -> Quantity:
    """The amount back as an exact Quantity (for arithmetic with model quantities)."""
    if resource == CPU:
        return Quantity.from_milli(value)
    return Quantity.from_units(value)
