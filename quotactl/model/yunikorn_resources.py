"""YuniKorn quantities and resource maps (yunikorn-core
``pkg/common/resources/quantity.go``, ``resources.go``), exact 64-bit integers.

YuniKorn's rules are not Kubernetes' (``quotactl/model/quantity.py``): the only legal form is
``digits [spaces] [suffix]`` — no sign, no decimal point, no exponent — the key ``vcore`` is
stored in millicores, and ``m`` is only legal on ``vcore``.  Messages are YuniKorn's own texts.

A *resource* is a ``dict[str, int]`` (resource name -> quantity in internal units) or ``None``
for Go's nil ``*Resource``; the functions below mirror ``pkg/common/resources`` by name and keep
the nil / empty / zero distinctions the validator and the preemptor depend on.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)

VCORE = "vcore"
MEMORY = "memory"

Resource = dict  # dict[str, int]; None is Go's nil resource

# Go's \s is [\t\n\f\r ]; Python's would also match Unicode spaces.
_LEGAL = re.compile(r"^([0-9]+)[\t\n\f\r ]*([mkKMGTPE]i?)?$")
_GO_SPACE = " \t\n\v\f\r\u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
            "\u2028\u2029\u202f\u205f\u3000"

SUFFIXES: dict[str, int] = {
    "": 1,
    "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15, "E": 10**18,
    "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60,
}


class QuantityError(ValueError):
    """A value YuniKorn's ``ParseQuantity`` / ``ParseVCore`` rejects; ``str()`` is YuniKorn's text."""


def _parse(value: str, milli: bool) -> int:
    text = value.strip(_GO_SPACE)
    m = _LEGAL.match(text)
    if m is None:
        raise QuantityError("invalid quantity")
    digits, suffix = m.group(1), m.group(2) or ""
    if len(digits.lstrip("0")) > len(str(INT64_MAX)):  # strconv.ParseInt fails; int() would refuse > 4,300
        raise QuantityError("invalid quantity: overflow")
    number = int(digits.lstrip("0") or "0")
    if number > INT64_MAX:
        raise QuantityError("invalid quantity: overflow")
    if suffix == "m":
        if not milli:
            raise QuantityError("invalid suffix")
        return number
    factor = SUFFIXES.get(suffix)
    if factor is None:
        raise QuantityError("invalid suffix")
    result = number * factor * (1000 if milli else 1)
    if result > INT64_MAX:
        raise QuantityError("invalid quantity: overflow")
    return result


def parse_quantity(value: str) -> int:
    """``ParseQuantity``: a plain quantity (bytes, counts, arbitrary resources)."""
    return _parse(value, milli=False)


def parse_vcore(value: str) -> int:
    """``ParseVCore``: millicores; ``500m`` -> 500, ``2`` -> 2000."""
    return _parse(value, milli=True)


def parse_value(name: str, value: str) -> int:
    """The quantity of resource ``name`` as YuniKorn stores it (only ``vcore`` gets CPU treatment)."""
    return parse_vcore(value) if name == VCORE else parse_quantity(value)


def new_resource_from_conf(conf: Mapping[str, str] | None) -> Resource:
    """``NewResourceFromConf``: always a (possibly empty) resource; first bad value raises.

    Go iterates a map in random order; we check keys sorted so the reported error is stable.
    """
    out: Resource = {}
    for name in sorted(conf or {}):
        out[name] = parse_value(name, conf[name])
    return out


def parse_lenient(conf: Mapping[str, str] | None) -> tuple[Resource, dict[str, str]]:
    """Parse what parses; return (resource, {name: error text}) for the rest."""
    out: Resource = {}
    errors: dict[str, str] = {}
    for name in sorted(conf or {}):
        try:
            out[name] = parse_value(name, conf[name])
        except QuantityError as exc:
            errors[name] = str(exc)
    return out, errors


# --------------------------------------------------------------------------- arithmetic -------

def _sat(value: int) -> int:
    return INT64_MAX if value > INT64_MAX else INT64_MIN if value < INT64_MIN else value


def clone(r: Resource | None) -> Resource | None:
    return None if r is None else dict(r)


def add(a: Resource | None, b: Resource | None) -> Resource:
    """``Add``: union of types, saturating at int64 like YuniKorn's ``addVal``."""
    out = dict(a or {})
    for k, v in (b or {}).items():
        out[k] = _sat(out.get(k, 0) + v)
    return out


def sub(a: Resource | None, b: Resource | None) -> Resource:
    """``Sub``: union of types; missing on either side counts as 0."""
    out = dict(a or {})
    for k, v in (b or {}).items():
        out[k] = _sat(out.get(k, 0) - v)
    return out


def sub_only_existing(base: Resource | None, delta: Resource | None) -> Resource:
    """``SubOnlyExisting``: ``base - delta`` over the types of ``base`` only."""
    return {k: _sat(v - (delta or {}).get(k, 0)) for k, v in (base or {}).items()}


def is_zero(r: Resource | None) -> bool:
    """``IsZero``: nil, empty or all values 0."""
    return not r or all(v == 0 for v in r.values())


def is_empty(r: Resource | None) -> bool:
    return not r


def strictly_greater_than_zero(r: Resource | None) -> bool:
    """``StrictlyGreaterThanZero``: at least one value > 0 and none < 0."""
    if not r:
        return False
    return any(v > 0 for v in r.values()) and not any(v < 0 for v in r.values())


def fit_in_max_undef(larger: Resource | None, smaller: Resource | None) -> bool:
    """``larger.FitInMaxUndef(smaller)``: types missing from ``larger`` are unlimited; negative
    values in ``larger`` count as 0; a nil ``larger`` fits everything."""
    if not smaller:
        return True
    big = larger or {}
    for k, v in smaller.items():
        if k not in big:
            continue
        if v > max(0, big[k]):
            return False
    return True


def fit_in(larger: Resource | None, smaller: Resource | None) -> bool:
    """``larger.FitIn(smaller)``: types missing from ``larger`` count as 0; negative values in
    ``larger`` count as 0 too."""
    if not smaller:
        return True
    big = larger or {}
    return all(v <= max(0, big.get(k, 0)) for k, v in smaller.items())


def sub_eliminate_negative(a: Resource | None, b: Resource | None) -> Resource:
    """``SubEliminateNegative``: ``a - b`` over the union of types, negative results set to 0."""
    return {k: max(0, v) for k, v in sub(a, b).items()}


def equals_or_empty(a: Resource | None, b: Resource | None) -> bool:
    """``EqualsOrEmpty``: both empty, or equal with a missing type counting as 0."""
    if not a and not b:
        return True
    return equals(a, b)


def has_negative_value(r: Resource | None) -> bool:
    """``HasNegativeValue``."""
    return any(v < 0 for v in (r or {}).values())


def at_least_zero(r: Resource | None) -> bool:
    """``StrictlyGreaterThanOrEquals(r, Zero)``: no value below 0 (nil counts as zero)."""
    return not has_negative_value(r)


def match_any(a: Resource | None, b: Resource | None) -> bool:
    """``MatchAny``: the two share at least one resource type."""
    return bool(set(a or {}) & set(b or {}))


def strictly_greater_than_only_existing(larger: Resource | None, smaller: Resource | None) -> bool:
    """``larger.StrictlyGreaterThanOnlyExisting(smaller)``: the preemptor's "still short" test.

    ``smaller`` empty: every value of ``larger`` is > 0.  Otherwise, over the types both have:
    none of ``smaller`` is above ``larger`` and at least one differs.  Disjoint (both non-empty):
    true.  Types only one side has are ignored.
    """
    big = larger or {}
    small = smaller or {}
    if not small:
        return bool(big) and all(v > 0 for v in big.values())
    shared = [k for k in big if k in small]
    if not shared:
        return bool(big)
    if any(small[k] > big[k] for k in shared):
        return False
    return any(small[k] != big[k] for k in shared)


def component_wise_min(a: Resource | None, b: Resource | None) -> Resource:
    """``ComponentWiseMin`` (resources.go): union of types, minimum where both
    have the type, otherwise the value that is present."""
    out = dict(a or {})
    for k, v in (b or {}).items():
        out[k] = min(out[k], v) if k in out else v
    return out


def component_wise_min_permissive(a: Resource | None, b: Resource | None) -> Resource | None:
    """``ComponentWiseMinPermissive``: like ``component_wise_min``; nil only when both are nil."""
    if a is None and b is None:
        return None
    return component_wise_min(a, b)


def equals(a: Resource | None, b: Resource | None) -> bool:
    """``Equals``: a type missing on one side counts as 0."""
    keys = set(a or {}) | set(b or {})
    return all((a or {}).get(k, 0) == (b or {}).get(k, 0) for k in keys)


def deep_equals(a: Resource | None, b: Resource | None) -> bool:
    """``DeepEquals``: nil is distinct from empty; exact key sets."""
    if a is None or b is None:
        return a is None and b is None
    return dict(a) == dict(b)


def go_string(r: Resource | None) -> str:
    """``Resource.String()``: ``map[memory:10000 vcore:100000]``, keys sorted, internal units."""
    if r is None:
        return "nil resource"
    return "map[" + " ".join(f"{k}:{r[k]}" for k in sorted(r)) + "]"


# --------------------------------------------------------------------------- display ----------

_BINARY = (("Ei", 2**60), ("Pi", 2**50), ("Ti", 2**40), ("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10))
_DECIMAL = (("E", 10**18), ("P", 10**15), ("T", 10**12), ("G", 10**9), ("M", 10**6), ("k", 10**3))
BYTE_RESOURCES = frozenset({MEMORY, "ephemeral-storage"})


def format_value(name: str, value: int) -> str:
    """Human form of an internal value: vcore as cores (``1500m``, ``4``), bytes in the unit that
    divides them exactly and gives the shortest text, binary or decimal (``8Gi``, ``100G``, not
    ``97656250Ki``; a tie is binary), everything else as a plain number (exact, never rounded)."""
    if name == VCORE:
        return str(value // 1000) if value % 1000 == 0 else f"{value}m"
    if value == 0 or name not in BYTE_RESOURCES:
        return str(value)
    exact = [f"{value // factor}{suffix}" for family in (_BINARY, _DECIMAL) for suffix, factor in family
             if value % factor == 0] + [str(value)]
    return min(exact, key=len)  # the first of the shortest: binary on a tie


def format_resource(r: Resource | None) -> str:
    """``vcore 4, memory 8Gi`` (sorted: vcore, memory, then the rest by name); ``-`` when unset."""
    if not r:
        return "-"
    order = sorted(r, key=lambda k: (k != VCORE, k != MEMORY, k))
    return ", ".join(f"{k} {format_value(k, r[k])}" for k in order)
