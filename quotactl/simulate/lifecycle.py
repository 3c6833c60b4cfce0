"""The inputs of a workload's life after its quota reservation (docs/simulate.md, "Admission checks
and WaitForPodsReady"): the Configuration's waitForPodsReady with Kueue's defaults, and quotactl's
annotations that say when each check answers and when the pods become ready.  Kueue's rules
themselves are ``kueue/lifecycle.py``; ``run.py`` puts them on the clock.

- ``quotactl.io/check.<name>: <attempt>[; <attempt>...]`` (Workload) and ``quotactl.io/outcome``
  (AdmissionCheck, for every workload without its own): attempt n applies to the n-th quota
  reservation, the last one repeats; an attempt is ``<State>@<delay>[+<requeueAfter>] ...``.
- ``quotactl.io/pods-ready-after: <duration> | never``: from each Admitted transition to PodsReady.
"""

from __future__ import annotations

from typing import NamedTuple

from quotactl.kueue.lifecycle import CHECK_STATES, PENDING, RETRY, PodsReadySettings
from quotactl.model.go_duration import parse_duration as go_duration
from quotactl.model.kueue import (
    CHECK_ANNOTATION_PREFIX as CHECK_PREFIX,
)
from quotactl.model.kueue import (
    OUTCOME_ANNOTATION,
    KueueCluster,
    KueueConfiguration,
    Workload,
)
from quotactl.simulate.clock import parse_duration
from quotactl.simulate.errors import SimulationInputError

NS_PER_US = 1_000
PODS_READY_ANNOTATION = "quotactl.io/pods-ready-after"
NEVER = "never"


class Transition(NamedTuple):
    state: str
    delay: int  # microseconds after the reservation
    requeue_after: int | None  # Retry only: requeueAfterSeconds, in microseconds


Attempt = tuple[Transition, ...]
NO_ANSWER: tuple[Attempt, ...] = ()  # no annotation: Ready at the reservation itself
READY_AT_ONCE: Attempt = (Transition("Ready", 0, None),)


def parse_attempts(text: str) -> tuple[Attempt, ...]:
    """``Ready@30s``, ``Ready@0s Rejected@10s``, ``Retry@5s+2s; Ready@5s``, ``Pending``;
    ValueError saying what is wrong."""
    attempts = []
    for part in str(text).split(";"):
        words = part.split()
        if not words:
            raise ValueError(f"{text!r}: an empty attempt (write e.g. Ready@30s; Retry@5s+2s; Pending)")
        attempts.append(tuple(_transition(w) for w in words))
    return tuple(attempts)


def _transition(word: str) -> Transition:
    if word == PENDING:
        return Transition(PENDING, 0, None)
    state, at, when = word.partition("@")
    if not at or state not in CHECK_STATES:
        raise ValueError(f"{word!r} is not <State>@<delay> with State one of {', '.join(CHECK_STATES)}")
    delay, plus, after = when.partition("+")
    if plus and state != RETRY:
        raise ValueError(f"{word!r}: only Retry takes +<requeueAfter>")
    return Transition(state, parse_duration(delay), parse_duration(after) if plus else None)


def attempt_for(attempts: tuple[Attempt, ...], reservation: int) -> Attempt:
    """The attempt of the ``reservation``-th quota reservation (1-based); the last one repeats."""
    if not attempts:
        return READY_AT_ONCE
    return attempts[min(reservation, len(attempts)) - 1]


def pods_ready_settings(cfg: KueueConfiguration | None, gates) -> PodsReadySettings | None:
    """waitForPodsReady in force (None: off, or DisableWaitForPodsReady); SimulationInputError on a
    timeout that is not a duration."""
    if cfg is None or cfg.pods_ready is None or gates.enabled("DisableWaitForPodsReady"):
        return None
    raw = cfg.pods_ready
    timeout = PodsReadySettings.timeout
    if raw.timeout is not None:
        try:  # a metav1.Duration: Go's time.ParseDuration decodes it (no days, no bare numbers)
            timeout = go_duration(raw.timeout) // NS_PER_US
        except ValueError as exc:
            raise _at(cfg, ("waitForPodsReady", "timeout"), f"Configuration waitForPodsReady.timeout: {exc}") from None
    return PodsReadySettings(
        timeout=timeout if timeout > 0 else PodsReadySettings.timeout,  # v1beta2: 0 counts as unset
        block_admission=raw.block_admission,
        backoff_limit_count=raw.backoff_limit_count,
        backoff_base_seconds=(raw.backoff_base_seconds if raw.backoff_base_seconds is not None
                              else PodsReadySettings.backoff_base_seconds),
        backoff_max_seconds=(raw.backoff_max_seconds if raw.backoff_max_seconds is not None
                             else PodsReadySettings.backoff_max_seconds),
    )


class Annotations:
    """Every workload's and check's lifecycle annotations, read once each (one run)."""

    def __init__(self, cluster: KueueCluster):
        self.cluster = cluster
        self._outcomes: dict[str, tuple[Attempt, ...]] = {}
        for name, ac in sorted(cluster.admission_checks.items()):
            raw = ac.source.metadata.get("annotations") if ac.source is not None else None
            text = raw.get(OUTCOME_ANNOTATION) if isinstance(raw, dict) else None
            if text is not None:
                self._outcomes[name] = _parsed(ac, OUTCOME_ANNOTATION, text, f"AdmissionCheck {name}")
        self._own: dict[str, dict[str, tuple[Attempt, ...]]] = {}
        self._ready: dict[str, int | None] = {}

    def attempts(self, wl: Workload, check: str) -> tuple[Attempt, ...]:
        own = self._own.get(wl.key)
        if own is None:
            own = self._own[wl.key] = {
                k[len(CHECK_PREFIX):]: _parsed(wl, k, v, f"Workload {wl.key}")
                for k, v in sorted(wl.annotations.items()) if k.startswith(CHECK_PREFIX)}
        got = own.get(check)
        return got if got is not None else self._outcomes.get(check, NO_ANSWER)

    def pods_ready_after(self, wl: Workload) -> int | None:
        """Microseconds from Admitted to PodsReady (0 without the annotation; None: never)."""
        if wl.key in self._ready:
            return self._ready[wl.key]
        text = wl.annotations.get(PODS_READY_ANNOTATION)
        value: int | None = 0
        if text is not None:
            if text.strip() == NEVER:
                value = None
            else:
                try:
                    value = parse_duration(text)
                except ValueError as exc:
                    raise _at(wl, ("metadata", "annotations", PODS_READY_ANNOTATION),
                              f"Workload {wl.key}: annotation {PODS_READY_ANNOTATION}: {exc} (or never)") from None
        self._ready[wl.key] = value
        return value


def _parsed(obj, key: str, text: str, what: str) -> tuple[Attempt, ...]:
    try:
        return parse_attempts(text)
    except ValueError as exc:
        raise _at(obj, ("metadata", "annotations", key), f"{what}: annotation {key}: {exc}") from None


def _at(obj, path: tuple, message: str) -> SimulationInputError:
    ref = getattr(obj.source, "ref", None) if obj.source is not None else None
    if ref is None:
        return SimulationInputError("<input>", 1, 1, message)
    pos = ref.pos(path, value=True)
    return SimulationInputError(ref.file, pos.line, pos.column, message)
