"""Kubernetes resource quantities, parsed exactly (no floats).

A quantity is ``<signed number><suffix>`` where the suffix is a binary SI unit (Ki..Ei), a
decimal SI unit (n, u, m, "", k, M..E) or a decimal exponent (e3, E-3).  Values are held as
an integer count of nano-units, rounded up in magnitude as Kubernetes does, so comparisons
and sums are exact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

NANO = 10**9
INT64_MAX = 2**63 - 1

_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL = {
    "n": Fraction(1, 10**9),
    "u": Fraction(1, 10**6),
    "m": Fraction(1, 10**3),
    "": Fraction(1),
    "k": Fraction(10**3),
    "M": Fraction(10**6),
    "G": Fraction(10**9),
    "T": Fraction(10**12),
    "P": Fraction(10**15),
    "E": Fraction(10**18),
}

_NUMBER = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
_GRAMMAR = re.compile(
    rf"^(?P<num>{_NUMBER})(?:(?P<bin>[KMGTPE]i)|(?P<exp>[eE][+-]?[0-9]+)|(?P<dec>[numkMGTPE])?)$"
)
# The CRD pattern is looser than the parser (it allows a decimal exponent with a fraction,
# such as 1e2.5); Kueue's webhook then fails to decode such a value, so we reject it too.


class QuantityError(ValueError):
    """A string that Kubernetes would not accept as a quantity."""


@dataclass(frozen=True, order=False)
class Quantity:
    """An exact Kubernetes quantity.

    ``nanos`` is the value times 10^9 (rounded up in magnitude); ``text`` is the source
    text, kept for messages; ``binary`` records a binary-SI suffix for canonical printing.
    """

    nanos: int
    text: str = ""
    binary: bool = False

    # -- construction -------------------------------------------------------------------
    @classmethod
    def parse(cls, value: object) -> Quantity:
        """Parse a YAML scalar (str or int) as Kubernetes does; raise QuantityError."""
        if type(value) is str:  # the usual case: the same few texts again and again (one per container)
            return _parse_text(value)
        if isinstance(value, bool):
            raise QuantityError(f"{value!r} is a boolean, not a quantity")
        if isinstance(value, int):
            return cls(_clamp(value * NANO), _int_text(value))
        if isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise QuantityError(f"{value!r} is not a finite number")
            if value.is_integer():
                return cls(_clamp(int(value) * NANO), str(int(value)))
            raise QuantityError(
                f"{value!r} is a YAML float; Kueue's schema accepts only integers or strings "
                f"(write \"{value}\" or {_suggest_milli(value)})"
            )
        if not isinstance(value, str):
            raise QuantityError(f"expected a quantity, got {type(value).__name__}")
        return _parse_text.__wrapped__(value)  # a str subclass: parsed as it is, not memoised

    @classmethod
    def from_units(cls, units: int | Fraction) -> Quantity:
        return cls(_ceil_magnitude(Fraction(units) * NANO))

    @classmethod
    def from_milli(cls, milli: int) -> Quantity:
        return cls(milli * 10**6)

    # -- arithmetic ---------------------------------------------------------------------
    def __add__(self, other: Quantity) -> Quantity:
        return Quantity(self.nanos + other.nanos)

    def __sub__(self, other: Quantity) -> Quantity:
        return Quantity(self.nanos - other.nanos)

    def __neg__(self) -> Quantity:
        return Quantity(-self.nanos)

    def __mul__(self, k: int) -> Quantity:
        return Quantity(self.nanos * k)

    __rmul__ = __mul__

    def __lt__(self, other: Quantity) -> bool:
        return self.nanos < other.nanos

    def __le__(self, other: Quantity) -> bool:
        return self.nanos <= other.nanos

    def __gt__(self, other: Quantity) -> bool:
        return self.nanos > other.nanos

    def __ge__(self, other: Quantity) -> bool:
        return self.nanos >= other.nanos

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Quantity) and self.nanos == other.nanos

    def __hash__(self) -> int:
        return hash(self.nanos)

    def is_negative(self) -> bool:
        return self.nanos < 0

    def is_zero(self) -> bool:
        return self.nanos == 0

    # -- integer views used by Kueue -------------------------------------------------------
    def value(self) -> int:
        """Whole units, rounded away from zero (Kubernetes ``Quantity.Value``)."""
        return _ceil_magnitude(Fraction(self.nanos, NANO))

    def milli_value(self) -> int:
        """Milli-units, rounded away from zero (Kubernetes ``Quantity.MilliValue``)."""
        return _ceil_magnitude(Fraction(self.nanos, 10**6))

    def as_fraction(self) -> Fraction:
        return Fraction(self.nanos, NANO)

    # -- printing -------------------------------------------------------------------------
    def canonical(self) -> str:
        """A short canonical form, like ``kubectl`` prints (1500m, 2Gi, 10)."""
        return format_nanos(self.nanos, binary=self.binary)

    def __str__(self) -> str:
        return self.text or self.canonical()

    def __repr__(self) -> str:
        return f"Quantity({self.canonical()!r})"


@lru_cache(maxsize=4096)
def _parse_text(text: str) -> Quantity:
    """``Quantity.parse`` of a string.  Memoised: a big input repeats a few texts (``"1"``,
    ``"500m"``, ``"2Gi"``) in every container, and the exact parse through ``Fraction`` is the
    larger part of building the model; a Quantity is immutable, so sharing one is safe.  (Errors
    are not memoised: they are raised again.)"""
    m = _GRAMMAR.match(text)
    if not m:
        raise QuantityError(_explain_bad(text))
    number, scale = _bounded_number(m.group("num"))
    binary = False
    if m.group("bin"):
        multiplier = Fraction(_BINARY[m.group("bin")])
        binary = True
    elif m.group("exp"):
        scale += _exponent(text, m.group("exp")[1:])
        multiplier = Fraction(1)
    else:
        multiplier = _DECIMAL[m.group("dec") or ""]
    return Quantity(_clamp(_scaled_nanos(number * multiplier, scale)), text, binary)


def format_nanos(nanos: int, binary: bool = False) -> str:
    sign = "-" if nanos < 0 else ""
    n = abs(nanos)
    if n == 0:
        return "0"
    if binary and n % NANO == 0:
        units = n // NANO
        for suffix, mult in reversed(list(_BINARY.items())):
            if units % mult == 0:
                return f"{sign}{units // mult}{suffix}"
    for suffix, scale in (("", NANO), ("m", 10**6), ("u", 10**3), ("n", 1)):
        if n % scale == 0:
            value = n // scale
            if suffix == "":
                for big, mult in (("E", 10**18), ("P", 10**15), ("T", 10**12), ("G", 10**9), ("M", 10**6), ("k", 10**3)):
                    if value % mult == 0 and value >= mult:
                        return f"{sign}{value // mult}{big}"
            return f"{sign}{value}{suffix}"
    return f"{sign}{n}n"  # unreachable: every integer is a multiple of 1n


def _ceil_magnitude(x: Fraction) -> int:
    """Round away from zero to an integer (Kubernetes rounds sub-nano values up in magnitude)."""
    magnitude = -((-abs(x.numerator)) // x.denominator)
    return magnitude if x >= 0 else -magnitude


# A quantity's value is capped at int64 units (``maxAllowed`` in apimachinery's
# ``resource.ParseQuantity``: larger values saturate, they are not an error) and rounded up to 1n
# (``amount.Round(..., Nano, inf.RoundUp)``). So only the first digits of a long number matter:
# past these bounds the exact value is never built (Python's int() refuses more than 4,300 digits).
_WHOLE_DIGITS = 40  # 10**40 units is far past int64 whatever the suffix
_FRACTION_DIGITS = 60  # 10**-60 units is far below 1n whatever the suffix


def _bounded_number(num: str) -> tuple[Fraction, int]:
    """``num`` as (mantissa, decimal exponent): exact up to the bounds above; beyond, a mantissa
    that saturates or rounds the same way (a dropped non-zero tail leaves a sticky last digit)."""
    negative = num.startswith("-")
    whole, _, fraction = num.lstrip("+-").partition(".")
    whole = whole.lstrip("0")
    scale = 0
    if len(whole) > _WHOLE_DIGITS:
        scale, whole, fraction = len(whole) - _WHOLE_DIGITS, whole[:_WHOLE_DIGITS], ""
    if len(fraction) > _FRACTION_DIGITS:
        sticky = "1" if fraction[_FRACTION_DIGITS:].strip("0") else ""
        fraction = fraction[:_FRACTION_DIGITS] + sticky
    digits = int(whole + fraction or "0")
    return Fraction(-digits if negative else digits), scale - len(fraction)


def _exponent(text: str, digits: str) -> int:
    """A decimal exponent; like ``strconv.ParseInt(..., 10, 32)`` in ``resource.ParseQuantity``'s
    suffix parser, one that does not fit in 32 bits is an error."""
    body = digits.lstrip("+-").lstrip("0")
    if len(body) > 10 or int(body or "0") > 2**31 - (0 if digits.startswith("-") else 1):
        raise QuantityError(f"{text!r}: unable to parse the quantity's suffix (exponent out of range)")
    return int(digits)


def _scaled_nanos(mantissa: Fraction, scale: int) -> int:
    """``mantissa * 10**scale`` in nano-units, rounded up in magnitude and saturated: far past
    either bound only the sign matters."""
    if mantissa == 0:
        return 0
    if scale > 2 * _WHOLE_DIGITS:
        return INT64_MAX * NANO * (1 if mantissa > 0 else -1)
    if scale < -(2 * _FRACTION_DIGITS + _WHOLE_DIGITS):
        return 1 if mantissa > 0 else -1
    return _ceil_magnitude(mantissa * Fraction(10) ** scale * NANO)


def _int_text(value: int) -> str:
    """The source text of an integer scalar (Python will not print one of more than 4,300 digits)."""
    try:
        return str(value)
    except ValueError:
        return f"{'-' if value < 0 else ''}<{value.bit_length()}-bit integer>"


def _clamp(nanos: int) -> int:
    limit = INT64_MAX * NANO
    return max(-limit, min(limit, nanos))


def _suggest_milli(value: float) -> str:
    milli = Fraction(str(value)) * 1000
    if milli.denominator == 1:
        return f"{milli.numerator}m"
    return f'"{value}"'


def _explain_bad(text: str) -> str:
    stripped = text.strip()
    if not text:
        return "empty string is not a quantity"
    if stripped != text:
        return f"{text!r} has surrounding spaces"
    if " " in text:
        return f"{text!r} contains a space; write it without one (e.g. {text.replace(' ', '')!r})"
    m = re.match(rf"^({_NUMBER})\s*(.*)$", text)
    if m:
        suffix = m.group(2)
        hints = {"K": "k (decimal) or Ki (binary)", "KB": "k or Ki", "Kb": "k or Ki", "gi": "Gi", "mi": "Mi",
                 "ki": "Ki", "Gb": "G or Gi", "GB": "G or Gi", "MB": "M or Mi", "Mb": "M or Mi", "TB": "T or Ti"}
        if suffix in hints:
            return f"{text!r}: unknown suffix {suffix!r}; did you mean {hints[suffix]}?"
        if suffix:
            return f"{text!r}: unknown suffix {suffix!r} (use n, u, m, k, M, G, T, P, E, Ki..Ei or an exponent like e3)"
    return f"{text!r} is not a quantity (expected a number with an optional suffix, e.g. 500m, 2Gi, 1e3)"


def is_quantity_text(text: str) -> bool:
    try:
        Quantity.parse(text)
    except QuantityError:
        return False
    return True
