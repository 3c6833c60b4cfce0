"""Where suppressions are written: ``# quotactl: ...`` comments in the input's text and the
``quotactl.io/ignore`` annotation of an object. Each becomes a ``Directive``: the codes it
silences (None = all) and the lines it covers (None = the whole file).

Comment forms (docs/configuration.md):

* ``# quotactl: disable=KQ506,KQ211 [why]`` on its own line: the YAML node that starts on the
  next line, with everything nested under it (a List item, a queue, ``spec:``); at the top of a
  document, before its first key, the whole document;
* the same as a trailing comment: that line only;
* ``# quotactl: disable-file[=CODES] [why]`` anywhere: the whole file.

The text after the codes is the justification (SARIF's ``suppressions[].justification``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.lint.codes import is_known_code, unknown_code_message
from quotactl.load.objects import KubeObject, LoadResult

MARK = "quotactl:"
ANNOTATION = "quotactl.io/ignore"
REASON_ANNOTATION = "quotactl.io/ignore-reason"
VERBS = ("disable", "disable-file")
_COMMENT = re.compile(r"(?:^|(?<=\s))#\s*quotactl:\s*(?P<verb>[A-Za-z-]*)(?P<rest>.*)$")
_LOOKS_LIKE_CODE = re.compile(r"\s+[A-Za-z]{2}[0-9]{3}\b")
_CODES = re.compile(r"=\s*(?P<codes>[A-Za-z0-9]+(?:\s*,\s*[A-Za-z0-9]+)*)")


@dataclass
class Directive:
    file: str
    line: int
    column: int
    codes: frozenset[str] | None  # None: every code
    first: int | None  # lines covered, inclusive; None: the whole file
    last: int | None
    justification: str
    form: str  # "comment" | "annotation"
    used: set[str] = field(default_factory=set)  # codes it silenced ("*" for a directive of all codes)

    def covers(self, d: Diagnostic) -> bool:
        return (d.file == self.file and (self.first is None or self.first <= d.line <= self.last)
                and (self.codes is None or d.code in self.codes))

    @property
    def text(self) -> str:
        return ",".join(sorted(self.codes)) if self.codes is not None else "all codes"

    @property
    def written(self) -> str:
        """The suppression as the user wrote it (the justification when they gave none)."""
        if self.form == "annotation":
            return f"{ANNOTATION}: {self.text if self.codes is not None else 'all'}"
        scope = "disable-file" if self.first is None else "disable"
        return f"# quotactl: {scope}" + (f"={self.text}" if self.codes is not None else "")


def directives(loaded: LoadResult) -> tuple[list[Directive], list[Diagnostic]]:
    """Every suppression of the input, and QL100 for the malformed ones."""
    found: list[Directive] = []
    problems: list[Diagnostic] = []
    for src in loaded.sources:
        if src.text and MARK in src.text:
            comment_directives(src.name, src.text, found, problems)
    annotation_directives(loaded, found, problems)
    return found, problems


# --- comments ------------------------------------------------------------------------------

def comment_directives(file: str, text: str, found: list[Directive], problems: list[Diagnostic]) -> None:
    lines = text.splitlines()
    for n, line in enumerate(lines):
        if MARK not in line:
            continue
        m = _COMMENT.search(line)
        if m is None:
            continue
        column = m.start() + 1
        verb = m.group("verb")
        if verb not in VERBS:
            problems.append(_invalid(file, n + 1, column, f"unknown suppression directive 'quotactl: {verb}'; "
                                     "write '# quotactl: disable=CODES' or '# quotactl: disable-file'"))
            continue
        codes, justification = _codes_and_reason(m.group("rest"), file, n + 1, column, problems)
        if codes is not None and not codes:
            continue  # every code it named is unknown: reported, silences nothing
        if verb == "disable-file":
            first = last = None
        elif line[:m.start()].strip():
            first = last = n + 1  # a trailing comment: its own line
        else:
            first, last = _scope(lines, n)
        found.append(Directive(file, n + 1, column, codes, first, last, justification, "comment"))


def _codes_and_reason(rest: str, file: str, line: int, column: int, problems: list[Diagnostic]
                      ) -> tuple[frozenset[str] | None, str]:
    m = _CODES.match(rest.lstrip())
    if m is None:
        if rest.lstrip().startswith("=") or _LOOKS_LIKE_CODE.match(rest):
            problems.append(_invalid(file, line, column, "malformed suppression comment: write "
                                     "'# quotactl: disable=KQ506,KQ211' (codes after '=', separated by commas)"))
            return frozenset(), ""
        return None, _reason(rest)
    codes = {c.strip().upper() for c in m.group("codes").split(",")}
    for code in sorted(c for c in codes if not is_known_code(c)):
        problems.append(_invalid(file, line, column, unknown_code_message(code, "suppression comment")))
    return frozenset(c for c in codes if is_known_code(c)), _reason(rest.lstrip()[m.end():])


def _reason(text: str) -> str:
    return text.strip().lstrip("-:—").strip()


def _neutral(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _boundary(line: str) -> bool:
    return (line.startswith("---") and line[3:4] in ("", " ", "\t")) or line.rstrip() == "..."


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _scope(lines: list[str], n: int) -> tuple[int, int]:
    """Lines covered by an own-line directive at index ``n`` (1-based, inclusive)."""
    m = next((k for k in range(n + 1, len(lines)) if not _neutral(lines[k])), None)
    if m is None:
        return n + 1, n + 1  # nothing follows: covers nothing but itself
    if _boundary(lines[m]) or _in_prologue(lines, n):
        start = m if _boundary(lines[m]) else n
        end = next((k for k in range(start + 1, len(lines)) if _boundary(lines[k])), len(lines))
        return n + 1, end
    return m + 1, _node_end(lines, m) + 1


def _in_prologue(lines: list[str], n: int) -> bool:
    """Whether line ``n`` comes before the first key of its document."""
    for k in range(n - 1, -1, -1):
        if _boundary(lines[k]):
            return True
        if not _neutral(lines[k]) and not lines[k].startswith("%"):
            return False
    return True


def _node_end(lines: list[str], m: int) -> int:
    """The last line of the YAML node starting at line ``m``: a sequence item runs while lines are
    indented deeper than its dash; a key opening a block also takes a compact sequence below it."""
    indent = _indent(lines[m])
    head = lines[m].strip()
    item = head == "-" or head.startswith("- ")
    opens_block = not item and head.split(" #", 1)[0].rstrip().endswith(":")
    end = m
    for k in range(m + 1, len(lines)):
        line = lines[k]
        if _neutral(line):
            continue
        if _boundary(line):
            break
        deeper = _indent(line) > indent
        compact_item = opens_block and _indent(line) == indent and line.strip().startswith("-")
        if not (deeper or compact_item):
            break
        end = k
    return end


def _invalid(file: str, line: int, column: int, message: str) -> Diagnostic:
    return Diagnostic("QL100", Severity.WARNING, message, file, line, column,
                      hint="`quotactl rules` lists every code")


# --- annotations -------------------------------------------------------------------------------

def annotation_directives(loaded: LoadResult, found: list[Directive], problems: list[Diagnostic]) -> None:
    """``metadata.annotations["quotactl.io/ignore"]``: codes (or ``all``) silenced in the object."""
    files = {s.name for s in loaded.sources if s.text and ANNOTATION in s.text}
    if not files:
        return
    annotated = [o for o in loaded.objects if o.ref.file in files and ANNOTATION in _annotations(o)]
    for obj in annotated:
        value = _annotations(obj)[ANNOTATION]
        at = obj.ref.pos(("metadata", "annotations", ANNOTATION), value=True)
        if not isinstance(value, str):
            problems.append(_invalid(obj.ref.file, at.line, at.column,
                                     f"annotation {ANNOTATION} must be a string of codes (\"KQ506,KQ211\") or \"all\""))
            continue
        names = {c.strip().upper() for c in value.split(",") if c.strip()}
        if names == {"ALL"}:
            codes = None
        else:
            for code in sorted(c for c in names if not is_known_code(c)):
                problems.append(_invalid(obj.ref.file, at.line, at.column,
                                         unknown_code_message(code, f"annotation {ANNOTATION}")))
            codes = frozenset(c for c in names if is_known_code(c))
            if not codes:
                continue
        first, last = _extent(obj, loaded)
        reason = _annotations(obj).get(REASON_ANNOTATION)
        found.append(Directive(obj.ref.file, at.line, at.column, codes, first, last,
                               reason if isinstance(reason, str) else "", "annotation"))


def _annotations(obj: KubeObject) -> dict:
    annotations = obj.metadata.get("annotations")
    return annotations if isinstance(annotations, dict) else {}


def _extent(obj: KubeObject, loaded: LoadResult) -> tuple[int, int]:
    """The lines of ``obj``: from its start to the start of the next object or document of its file."""
    start = obj.ref.pos().line
    starts = [d.start.line for d in loaded.documents if d.file == obj.ref.file]
    starts += [o.ref.pos().line for o in loaded.objects if o.ref.file == obj.ref.file and o.ref.base]
    following = [s for s in starts if s > start]
    return start, (min(following) - 1 if following else 1 << 62)
