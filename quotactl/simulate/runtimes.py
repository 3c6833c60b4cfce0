"""How long a workload runs once admitted (the contract's order): the ``quotactl.io/runtime``
annotation, else ``spec.maximumExecutionTimeSeconds``, else ``--default-runtime``, else never
finishes.  Also the ``quotactl.io/class`` label a report groups workloads by."""

from __future__ import annotations

from typing import NamedTuple

from quotactl.model.kueue import Workload
from quotactl.simulate.clock import US, parse_duration
from quotactl.simulate.errors import SimulationInputError

RUNTIME_ANNOTATION = "quotactl.io/runtime"
CLASS_LABEL = "quotactl.io/class"

ANNOTATION = "annotation"
MAX_EXECUTION_TIME = "maximumExecutionTimeSeconds"
DEFAULT = "default"


class Runtime(NamedTuple):
    micros: int | None  # None: never finishes
    source: str | None  # ANNOTATION | MAX_EXECUTION_TIME | DEFAULT | None


def resolve_runtime(wl: Workload, default: int | None) -> Runtime:
    """The runtime of ``wl`` (``default``: --default-runtime in microseconds, or None).  Raises
    SimulationInputError, at the annotation's value, when the annotation is not a duration."""
    raw = wl.annotations.get(RUNTIME_ANNOTATION)
    if raw is not None:
        try:
            return Runtime(parse_duration(raw), ANNOTATION)
        except ValueError as exc:
            raise _at_annotation(wl, f"annotation {RUNTIME_ANNOTATION}: {exc}") from None
    if wl.maximum_execution_time_seconds is not None and wl.maximum_execution_time_seconds >= 0:
        return Runtime(wl.maximum_execution_time_seconds * US, MAX_EXECUTION_TIME)
    if default is not None:
        return Runtime(default, DEFAULT)
    return Runtime(None, None)


def _at_annotation(wl: Workload, message: str) -> SimulationInputError:
    src = wl.source
    ref = getattr(src, "ref", None)
    if ref is None:
        return SimulationInputError("<input>", 1, 1, f"Workload {wl.key}: {message}")
    pos = ref.pos(("metadata", "annotations", RUNTIME_ANNOTATION), value=True)
    return SimulationInputError(ref.file, pos.line, pos.column, f"Workload {wl.key}: {message}")


def workload_class(wl: Workload) -> str | None:
    """The generator class, or the ``quotactl.io/class`` label (the generator sets it too)."""
    return wl.labels.get(CLASS_LABEL)
