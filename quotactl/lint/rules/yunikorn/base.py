"""What a YuniKorn rule sees, and helpers shared by the YuniKorn rule modules.

A YuniKorn rule is ``check(inp: YuniKornInput, ctx: YKContext) -> Iterable[Issue]``: findings are
about queues, partitions and placement rules of one scheduler config (a queues.yaml, or the queue
document of the ConfigMaps), not about Kubernetes objects.  ``quotactl.lint.yunikorn`` places them
at the config's own positions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from quotactl.lint.rule import RuleDoc, rule
from quotactl.load.yunikorn import CONFIG_KINDS, YuniKornInput
from quotactl.model.yunikorn import QueueRef, walk_queues
from quotactl.yunikorn.issues import Issue
from quotactl.yunikorn.tree import PartitionView, build_tree
from quotactl.yunikorn.validate import validate

KINDS = CONFIG_KINDS
# Validator findings about queues a fragment (--no-cross-refs) may have in its other parts.
ELSEWHERE = ("queues-missing", "placement-missing")
VALIDATOR = "yunikorn-core pkg/common/configs/configvalidator.go"


@dataclass
class YKContext:
    inp: YuniKornInput
    options: object = None
    extra: dict = field(default_factory=dict)

    @cached_property
    def issues(self) -> list[Issue]:
        """The validator's findings (configvalidator.go ``Validate``), computed once for all YK1xx rules.
        A fragment's queues may be elsewhere: no "queue config is not set" and no "placement rule
        references a queue that does not exist" for it."""
        issues = validate(self.inp.config)
        return [i for i in issues if i.kind not in ELSEWHERE] if self.inp.fragment else issues

    def of_kind(self, *kinds: str) -> Iterator[Issue]:
        return (i for i in self.issues if i.kind in kinds)

    @cached_property
    def views(self) -> list[PartitionView]:
        return [build_tree(p) for p in self.inp.config.partitions]

    def queues(self) -> Iterator[QueueRef]:
        for p in self.inp.config.partitions:
            yield from walk_queues(p)


def yk_rule(*, code: str, name: str, severity: str, summary: str, doc: RuleDoc, layer: str,
            check: Callable[[YuniKornInput, YKContext], Iterable[Issue]]) -> None:
    """``rule`` for a YuniKorn check, which runs once per scheduler config."""
    rule(code=code, name=name, severity=severity, summary=summary, doc=doc, dialect="yunikorn", layer=layer,
         kinds=KINDS, scope="config")(check)


def validator_rule(code: str, name: str, kinds: tuple[str, ...], summary: str, doc: RuleDoc) -> None:
    """A YK1xx rule: the validator issues of the given kinds."""

    def check(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
        return ctx.of_kind(*kinds)

    check.__name__ = f"check_{code.lower()}"
    yk_rule(code=code, name=name, severity="error", summary=summary, doc=doc, layer="validator", check=check)
