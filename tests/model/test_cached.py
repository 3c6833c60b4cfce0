"""``cached_attribute``: computed on the first read only, then read from the instance, frozen
dataclasses included (as ``functools.cached_property``, without its lock)."""

from __future__ import annotations

from dataclasses import dataclass

from quotactl.model.cached import cached_attribute


@dataclass(frozen=True)
class _Point:
    x: int
    y: int

    @cached_attribute
    def norm1(self) -> int:
        """|x| + |y|."""
        calls.append(self)
        return abs(self.x) + abs(self.y)


calls: list = []


def test_computed_once_per_instance_and_kept_on_it():
    calls.clear()
    p, q = _Point(3, -4), _Point(1, 1)
    assert (p.norm1, p.norm1, q.norm1) == (7, 7, 2)
    assert calls == [p, q]
    assert p.__dict__["norm1"] == 7


def test_fields_and_equality_are_the_dataclass_own():
    a, b = _Point(1, 2), _Point(1, 2)
    assert a.norm1 == 3
    assert a == b and hash(a) == hash(b)  # the cached value is no field


def test_the_class_attribute_is_the_descriptor():
    assert isinstance(_Point.norm1, cached_attribute)
    assert _Point.norm1.__doc__ == "|x| + |y|."
