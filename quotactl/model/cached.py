"""``cached_attribute``: ``functools.cached_property`` without its lock.

Python 3.11's ``cached_property`` takes a per-class lock on every first access; the scheduler
makes hundreds of thousands of first accesses per run (a workload's key, an assignment's mode), and
quotactl computes them in one thread.  Like ``cached_property`` it is a non-data descriptor: once
computed, the value sits in the instance ``__dict__`` and the descriptor is not called again
(frozen dataclasses included).  Python 3.12 dropped the lock; this is what it does there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class cached_attribute(Generic[T]):  # noqa: N801 - used as a decorator, like cached_property
    def __init__(self, compute: Callable[[Any], T]):
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> T:
        if instance is None:
            return self  # type: ignore[return-value]
        value = instance.__dict__[self.name] = self.compute(instance)
        return value
