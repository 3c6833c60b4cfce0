"""Lint rules of both dialects: one function each, registered one way (``rule``) with its code,
name, severity and documentation.

What a check runs on depends on its scope: one Kueue model object (``scope="object"``, restricted
to ``kinds``), the whole Kueue input (``scope="cluster"``), or one YuniKorn scheduler config
(``scope="config"``).  It yields findings; the runner (``quotactl.lint.apply``) turns them into
``Diagnostic``s with the source position of the finding.

    @rule(code="KQ201", name="borrow-within-cohort-needs-reclaim", kinds=("ClusterQueue",), ...)
    def check(cq: ClusterQueue, ctx: LintContext):
        if ...:
            yield Finding(("spec", "preemption"), "message", type="Invalid")
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from quotactl.diagnostics import Fix, Severity


@dataclass(frozen=True)
class RuleDoc:
    what: str  # what the rule checks
    why: str  # what goes wrong in the cluster otherwise
    fix: str  # how to fix it
    bad: str = ""  # a YAML snippet that trips the rule
    good: str = ""  # the fixed snippet
    source: str = ""  # where the behaviour comes from: the upstream repository, file and function


@dataclass(frozen=True)
class Finding:
    path: tuple  # field path inside the object the finding is about
    message: str
    type: str | None = "Invalid"  # Kubernetes field.ErrorType, or None for advisory findings
    severity: Severity | None = None  # overrides the rule's default severity
    hint: str | None = None
    fix: Fix | None = None
    subject: object = None  # for cluster-scope rules: the model object the finding is about
    value: bool = False  # point at the value rather than the key
    related: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    summary: str
    doc: RuleDoc
    dialect: str  # "kueue" | "yunikorn" | "input"
    layer: str  # schema | cel | webhook | runtime | reference | input | config
    kinds: tuple[str, ...] = ()
    scope: str = "object"  # "object" | "cluster" (Kueue) | "config" (YuniKorn)
    gate: str | None = None  # Kueue feature gate the rule depends on
    check: Callable[..., Iterable[Finding]] | None = field(default=None, compare=False, repr=False)


_REGISTRY: dict[str, Rule] = {}


def rule(
    *, code: str, name: str, severity: Severity | str, summary: str, doc: RuleDoc, dialect: str = "kueue",
    layer: str = "webhook", kinds: tuple[str, ...] = (), scope: str = "object", gate: str | None = None,
):
    """Register the decorated check function as a lint rule; ``rule(...)(None)`` registers a code
    whose diagnostics another stage emits (loader, schema), so that ``quotactl rules`` documents it."""

    def wrap(fn: Callable[..., Iterable] | None):
        register(
            Rule(code, name, Severity(severity), summary, doc, dialect, layer, tuple(kinds), scope, gate, fn)
        )
        return fn

    return wrap


def register(r: Rule) -> Rule:
    if r.code in _REGISTRY and _REGISTRY[r.code].check is not r.check:
        raise ValueError(f"duplicate rule code {r.code}")
    _REGISTRY[r.code] = r
    return r


def registry() -> dict[str, Rule]:
    from quotactl.lint.rules import import_rules

    import_rules()
    return dict(sorted(_REGISTRY.items()))


def checks_of(dialect: str) -> list[Rule]:
    """The rules of ``dialect`` that have a check to run, by code (only that dialect's rule
    modules are imported)."""
    from quotactl.lint.rules import import_rules

    import_rules(dialect)
    return [r for _, r in sorted(_REGISTRY.items()) if r.dialect == dialect and r.check is not None]
