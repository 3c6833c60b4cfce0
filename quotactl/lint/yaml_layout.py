"""The block structure of a YAML text read from its lines alone (indentation, ``- `` items,
``---`` markers), for the reach of a suppression comment: where the node that starts on a line
ends, and which comments sit before the first key of their document.

Every table is built in one pass over the lines, so a file with thousands of comments costs
linear time (each comment's reach is a lookup, never a scan).
"""

from __future__ import annotations


def _neutral(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _boundary(line: str) -> bool:
    return (line.startswith("---") and line[3:4] in ("", " ", "\t")) or line.rstrip() == "..."


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


class Layout:
    def __init__(self, lines: list[str]):
        count = len(lines)
        self.boundary = [_boundary(line) for line in lines]
        neutral = [_neutral(line) for line in lines]
        self.next_content: list[int | None] = [None] * (count + 1)  # first content line at or after k
        self.next_boundary = [count] * (count + 1)  # first document marker after k
        for k in range(count - 1, -1, -1):
            self.next_content[k] = k if not neutral[k] else self.next_content[k + 1]
            self.next_boundary[k] = k + 1 if k + 1 < count and self.boundary[k + 1] else self.next_boundary[k + 1]
        self.prologue = self._prologue(lines, neutral)
        self.node_end = self._node_ends(lines, neutral)

    def _prologue(self, lines: list[str], neutral: list[bool]) -> list[bool]:
        """Whether line k comes before the first key of its document."""
        out, content_seen = [], False
        for k, line in enumerate(lines):
            if self.boundary[k]:
                content_seen = False
            out.append(not content_seen)
            if not neutral[k] and not self.boundary[k] and not line.startswith("%"):
                content_seen = True
        return out

    def _node_ends(self, lines: list[str], neutral: list[bool]) -> dict[int, int]:
        """The last line of the node starting at each content line: a sequence item runs while
        lines are indented deeper than its dash; a key opening a block also takes a compact
        sequence at its own indentation. Open nodes are a stack: each line closes those it does
        not continue."""
        ends: dict[int, int] = {}
        stack: list[tuple[int, int, bool]] = []  # (line, indent, opens a block)
        last = 0
        for k, line in enumerate(lines):
            if neutral[k]:
                continue
            if self.boundary[k]:
                while stack:
                    ends[stack.pop()[0]] = last
                last = k
                continue
            indent, head = _indent(line), line.strip()
            dash = head == "-" or head.startswith("- ")
            while stack and not (indent > stack[-1][1] or (stack[-1][2] and indent == stack[-1][1]
                                                           and head.startswith("-"))):
                ends[stack.pop()[0]] = last
            opens = not dash and head.split(" #", 1)[0].rstrip().endswith(":")
            stack.append((k, indent, opens))
            last = k
        for entry in stack:
            ends[entry[0]] = last
        return ends

    def reach(self, n: int) -> tuple[int, int]:
        """The lines (1-based, inclusive) an own-line comment at index ``n`` covers: the node that
        starts on the next content line; at the top of a document, the whole document."""
        m = self.next_content[n + 1]
        if m is None:
            return n + 1, n + 1  # nothing follows: it covers nothing but itself
        if self.boundary[m] or self.prologue[n]:
            start = m if self.boundary[m] else n
            return n + 1, self.next_boundary[start]
        return m + 1, self.node_end[m] + 1
