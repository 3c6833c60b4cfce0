"""Shape checks of the Kubernetes fields the YuniKorn shim reads from Pods and Nodes: the first field of the wrong shape, as (path inside the object, problem).

The API server rejects such an object, so it can never be in a cluster; the model leaves it out
instead of guessing what it meant.  A null field counts as absent.  A YAML float quantity is not
a shape problem: the API server reads a JSON number as a quantity, and the lenient readers skip it.
"""

from __future__ import annotations

from quotactl.model.quantity import INT64_MAX, Quantity, QuantityError

Problem = tuple[tuple, str]  # (path inside the object, what is wrong)

_TYPE_NAMES = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
               dict: "a map"}


def _kind(value) -> str:
    return "null" if value is None else _TYPE_NAMES.get(type(value), type(value).__name__)


def _wrong_type(value, expected: type, path: tuple, optional: bool = True):
    """One problem when ``value`` is not an ``expected`` (null allowed where ``optional``)."""
    if not isinstance(value, expected) and not (optional and value is None):
        yield path, f"is {_kind(value)}, not {_TYPE_NAMES[expected]}"


def _quantity(value, path: tuple):
    if value is None or isinstance(value, float):
        return
    try:
        q = Quantity.parse(value)
    except QuantityError as exc:
        yield path, f"is not a quantity ({exc})"
        return
    if abs(q.value()) >= INT64_MAX:  # parsing clamps to int64 units: at the bound it did not fit
        yield path, f"is too large ({value}): resources are int64"


def _quantities(value, path: tuple):
    yield from _wrong_type(value, dict, path)
    for name, q in (value.items() if isinstance(value, dict) else ()):
        yield from _quantity(q, path + (name,))


def _maps(items: list, path: tuple):
    """Every item of a list must be a map (a null item too is rejected)."""
    for i, item in enumerate(items):
        yield from _wrong_type(item, dict, path + (i,), optional=False)


def _requirements(resources, path: tuple):
    """A ``resources`` block: requests / limits maps of quantities."""
    yield from _wrong_type(resources, dict, path)
    if isinstance(resources, dict):
        yield from _quantities(resources.get("requests"), path + ("requests",))
        yield from _quantities(resources.get("limits"), path + ("limits",))


def _list_items(parent: dict, key: str, path: tuple):
    """``parent[key]`` must be a list of maps."""
    value = parent.get(key)
    yield from _wrong_type(value, list, path)
    if isinstance(value, list):
        yield from _maps(value, path)


def _containers(spec: dict, key: str):
    path = ("spec", key)
    yield from _list_items(spec, key, path)
    for i, c in enumerate(_as_list(spec.get(key))):
        yield from _requirements(c.get("resources"), path + (i, "resources"))


def _container_statuses(status: dict):
    path = ("status", "containerStatuses")
    yield from _list_items(status, "containerStatuses", path)
    for i, s in enumerate(_as_list(status.get("containerStatuses"))):
        yield from _quantities(s.get("allocatedResources"), path + (i, "allocatedResources"))
        yield from _requirements(s.get("resources"), path + (i, "resources"))


def _as_list(value) -> list:
    """Only reached once the list and its items were checked: an absent list is empty."""
    return value if isinstance(value, list) else []


def _object(data: dict):
    """``metadata`` (labels, annotations, ownerReferences), ``spec`` and ``status``."""
    md = data.get("metadata")
    yield from _wrong_type(md, dict, ("metadata",))
    if isinstance(md, dict):
        for key in ("labels", "annotations"):
            yield from _wrong_type(md.get(key), dict, ("metadata", key))
        yield from _list_items(md, "ownerReferences", ("metadata", "ownerReferences"))
    for key in ("spec", "status"):
        yield from _wrong_type(data.get(key), dict, (key,))


def _pod_problems(data: dict):
    yield from _object(data)
    spec, status = data.get("spec") or {}, data.get("status") or {}
    yield from _containers(spec, "containers")
    yield from _containers(spec, "initContainers")
    yield from _quantities(spec.get("overhead"), ("spec", "overhead"))
    yield from _requirements(spec.get("resources"), ("spec", "resources"))
    yield from _container_statuses(status)


def _node_problems(data: dict):
    yield from _object(data)
    status = data.get("status") or {}
    yield from _quantities(status.get("allocatable"), ("status", "allocatable"))
    yield from _quantities(status.get("capacity"), ("status", "capacity"))


def pod_problem(data: dict) -> Problem | None:
    """Checks run in order and stop at the first problem, so a later check may rely on the
    shapes an earlier one accepted."""
    return next(_pod_problems(data), None)


def node_problem(data: dict) -> Problem | None:
    return next(_node_problems(data), None)
