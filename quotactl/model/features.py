"""Kueue feature gates at a target Kueue release: their defaults, and checking a setting the way
Kueue's manager does at start-up (k8s.io/component-base featuregate ``Set``/``SetFromMap``, called
from kueue pkg/config/validation.go LoadAndValidateFeatureGates).

The table of every gate per release is ``kueue_versions.GATE_CHANGES``; nothing here lists gates.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from quotactl.model.kueue_versions import (
    DEFAULT_RELEASE,
    DEPRECATED,
    GA,
    gate_introduced_in,
    gate_removed_in,
    gate_table,
)

# component-base's two pseudo-gates: every Alpha (Beta) gate not set explicitly takes this value.
ALL_STAGE_GATES = {"AllAlpha": "Alpha", "AllBeta": "Beta"}


def gate_defaults(release: str = DEFAULT_RELEASE) -> dict[str, bool]:
    """Every gate of ``release`` -> its default."""
    return {name: spec.default for name, spec in gate_table(release).items()}


KUEUE_GATE_DEFAULTS: dict[str, bool] = gate_defaults(DEFAULT_RELEASE)


@dataclass(frozen=True)
class GateProblem:
    """What Kueue says about one setting: ``error`` (it refuses to start) or ``warning`` (it logs)."""

    gate: str
    severity: str  # "error" | "warning"
    message: str


def check_gate(name: str, value: bool, release: str = DEFAULT_RELEASE) -> GateProblem | None:
    """Kueue ``release``'s verdict on setting gate ``name`` to ``value``; None when it is accepted
    silently."""
    if name in ALL_STAGE_GATES:
        return None
    spec = gate_table(release).get(name)
    if spec is None:
        return GateProblem(name, "error", unknown_gate_message(name, release))
    if spec.locked and value != spec.default:
        return GateProblem(name, "error", f"cannot set feature gate {name} to {str(value).lower()}, feature is "
                                          f"locked to {str(spec.default).lower()} in Kueue {release}")
    if spec.stage in (GA, DEPRECATED):
        stage = "GA" if spec.stage == GA else "deprecated"
        return GateProblem(name, "warning", f"setting {stage} feature gate {name}={str(value).lower()}: it will be "
                                            f"removed in a future Kueue release")
    return None


def unknown_gate_message(name: str, release: str) -> str:
    """"unrecognized feature gate", with why (removed / added later) or the closest known names."""
    message = f"unrecognized feature gate {name!r} in Kueue {release}"
    removed = gate_removed_in(name, release)
    introduced = gate_introduced_in(name)
    if removed:
        return f"{message} (removed in {removed})"
    if introduced:
        return f"{message} (added in {introduced})"
    close = difflib.get_close_matches(name, [*gate_table(release), *ALL_STAGE_GATES], n=3, cutoff=0.6)
    return f"{message}; did you mean {', '.join(close)}?" if close else message


def parse_gate_list(text: str, release: str = DEFAULT_RELEASE) -> dict[str, bool]:
    """Parse ``Name=true,Other=false`` (the kube --feature-gates syntax) and check every gate the way
    Kueue ``release`` does; raises ValueError on the first setting Kueue refuses."""
    gates: dict[str, bool] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, sep, value = part.partition("=")
        name = name.strip()
        value = value.strip().lower() if sep else "true"
        if value not in ("true", "false"):
            raise ValueError(f"feature gate {name!r}: value must be true or false, got {value!r}")
        problem = check_gate(name, value == "true", release)
        if problem is not None and problem.severity == "error":
            raise ValueError(f"--feature-gates: {problem.message}")
        gates[name] = value == "true"
    return gates


def gate_warnings(gates: dict[str, bool], release: str = DEFAULT_RELEASE) -> list[str]:
    """Kueue's start-up warnings for these settings (GA or deprecated gates set explicitly)."""
    out = []
    for name, value in gates.items():
        problem = check_gate(name, value, release)
        if problem is not None and problem.severity == "warning":
            out.append(problem.message)
    return out


class FeatureGates:
    """Explicit settings (command line over Configuration) on top of the defaults of ``release``."""

    def __init__(self, explicit: dict[str, bool] | None = None, release: str = DEFAULT_RELEASE):
        self.release = release
        self.explicit = _expand_stage_gates(dict(explicit or {}), release)
        self._defaults = gate_defaults(release)
        # every gate's value in one dict: the scheduler asks several times per nomination
        self._on = {**self._defaults, **self.explicit}

    def enabled(self, name: str) -> bool:
        """A gate the release does not have is off: its feature does not exist there."""
        return self._on.get(name, False)

    def explicitly_set(self, name: str) -> bool:
        return name in self.explicit

    def enabled_for_use(self, name: str) -> bool:
        """For rules about a gated field the object actually sets: run them unless the gate is
        explicitly off.  Someone who writes the field means to turn the feature on, and the
        rules say what Kueue enforces once it is."""
        return self.explicit.get(name, True)


def _expand_stage_gates(explicit: dict[str, bool], release: str) -> dict[str, bool]:
    """AllAlpha/AllBeta set every unlocked gate of their stage that is not named explicitly."""
    out = {k: v for k, v in explicit.items() if k not in ALL_STAGE_GATES}
    for pseudo, stage in ALL_STAGE_GATES.items():
        if pseudo not in explicit:
            continue
        for name, spec in gate_table(release).items():
            if spec.stage == stage and not spec.locked:
                out.setdefault(name, explicit[pseudo])
    return out
