"""Per-node resource amounts as Kueue's TAS snapshot holds them (``pkg/resources`` ``Requests``):
plain dicts resource -> amount (cpu in millicores, the rest in whole units, as ``amounts.to_amount``)."""

from __future__ import annotations

from quotactl.kueue.amounts import PODS, to_amount
from quotactl.model.quantity import Quantity

INT32_MAX = 2**31 - 1

Requests = dict[str, int]
ONE_POD: Requests = {PODS: 1}


def amounts(quantities: dict[str, Quantity]) -> Requests:
    return {r: to_amount(r, q) for r, q in quantities.items()}


def add(into: Requests, more: Requests) -> None:
    for r, v in more.items():
        into[r] = into.get(r, 0) + v


def sub(into: Requests, less: Requests) -> None:
    for r, v in less.items():
        into[r] = into.get(r, 0) - v


def plus(a: Requests, b: Requests) -> Requests:
    out = dict(a)
    add(out, b)
    return out


def scaled(a: Requests, k: int) -> Requests:
    return {r: v * k for r, v in a.items()}


def count_in_with_limit(requests: Requests, capacity: Requests) -> tuple[int, str]:
    """``CountInWithLimitingResource``: how many times ``requests`` fit in ``capacity`` (never
    negative), and the resource that limits it (ties: the first name alphabetically)."""
    if not requests:
        return 0, ""
    # the smallest count, ties to the first name: one pass, no sort (this runs for every leaf
    # of every nomination)
    return min((INT32_MAX if value == 0 else max(0, min(capacity.get(name, 0) // value, INT32_MAX)), name)
               for name, value in requests.items())


def count_in(requests: Requests, capacity: Requests) -> int:
    return count_in_with_limit(requests, capacity)[0]
