"""The base of every typed Kueue-side object: the loaded object it was built from."""

from __future__ import annotations

from dataclasses import dataclass, field

from quotactl.load.objects import KubeObject


@dataclass(frozen=True, slots=True)  # slotted, so are the kinds a big input holds many of (no __dict__ each)
class KueueObject:
    source: KubeObject = field(compare=False, repr=False)

    @property
    def api_version(self) -> str:
        return self.source.api_version

    @property
    def version(self) -> str:
        return self.source.version

    @property
    def display(self) -> str:
        return self.source.display
