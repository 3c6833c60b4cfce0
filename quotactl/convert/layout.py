"""How a YAML document is laid out, so a rewritten document keeps the author's indentation:
ruamel.yaml's round-trip mode keeps comments, key order and quotes, but indents with whatever it
is told."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

_KEY_OPENS_BLOCK = re.compile(r"^(\s*)(?:- )*[^#\s][^#]*:\s*(#.*)?$")
_CONTENT = re.compile(r"^(\s*)(- )?\S")


@dataclass(frozen=True)
class Indent:
    mapping: int = 2
    offset: int = 0  # columns from a sequence's parent key to its "-"

    @property
    def sequence(self) -> int:
        return self.offset + 2


def detect_indent(text: str) -> Indent:
    """The most common mapping indent and dash offset of ``text`` (kubectl's 2 / 0 when it has none)."""
    mappings: Counter = Counter()
    offsets: Counter = Counter()
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    for line, following in zip(lines, lines[1:], strict=False):
        opener = _KEY_OPENS_BLOCK.match(line)
        content = _CONTENT.match(following)
        if not opener or not content:
            continue
        parent = _key_column(line)
        child = len(content.group(1))
        if child <= parent:
            continue
        (offsets if content.group(2) else mappings)[child - parent] += 1
    mapping = mappings.most_common(1)[0][0] if mappings else 2
    offset = offsets.most_common(1)[0][0] if offsets else 0
    return Indent(mapping, offset)


def _key_column(line: str) -> int:
    """The column of the key on ``line`` ("  - name:" -> 4)."""
    column = len(line) - len(line.lstrip(" "))
    rest = line[column:]
    while rest.startswith("- "):
        column += 2
        rest = rest[2:]
    return column

