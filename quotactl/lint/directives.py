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

import bisect
import re
from dataclasses import dataclass, field

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.lint.codes import MAX_SUGGESTED, is_known_code, unknown_code_message
from quotactl.lint.yaml_layout import Layout
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
    used: set[str] = field(default_factory=set)  # the codes of the findings it silenced

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


class Problems(list):
    """QL100 findings of one run; "did you mean" is worked out for the first MAX_SUGGESTED
    distinct unknown codes only (a file of thousands of made-up codes is not a typo to help with)."""

    def __init__(self):
        super().__init__()
        self.unknown: set[str] = set()

    def add(self, file: str, line: int, column: int, message: str) -> None:
        self.append(Diagnostic("QL100", Severity.WARNING, message, file, line, column,
                               hint="`quotactl rules` lists every code"))

    def unknown_code(self, file: str, line: int, column: int, code: str, what: str) -> None:
        self.unknown.add(code)
        self.add(file, line, column, unknown_code_message(code, what, suggest=len(self.unknown) <= MAX_SUGGESTED))


def directives(loaded: LoadResult) -> tuple[list[Directive], list[Diagnostic]]:
    """Every suppression of the input, and QL100 for the malformed ones."""
    found: list[Directive] = []
    problems = Problems()
    parsed = {doc.file for doc in loaded.documents}  # a text that is not YAML has no comments to trust
    for src in loaded.sources:
        if src.text and MARK in src.text and src.name in parsed:
            comment_directives(src.name, src.text, found, problems)
    annotation_directives(loaded, found, problems)
    return found, problems


# --- comments ------------------------------------------------------------------------------

def comment_directives(file: str, text: str, found: list[Directive], problems: Problems) -> None:
    lines = text.splitlines()
    hits = [(n, m) for n, line in enumerate(lines) if MARK in line and (m := _COMMENT.search(line))]
    layout = Layout(lines) if hits else None
    for n, m in hits:
        line = lines[n]
        column = m.start() + 1
        verb = m.group("verb")
        if verb not in VERBS:
            problems.add(file, n + 1, column, f"unknown suppression directive 'quotactl: {verb}'; "
                         "write '# quotactl: disable=CODES' or '# quotactl: disable-file'")
            continue
        codes, justification = _codes_and_reason(m.group("rest"), file, n + 1, column, problems)
        if codes is not None and not codes:
            continue  # every code it named is unknown: reported, silences nothing
        if verb == "disable-file":
            first = last = None
        elif line[:m.start()].strip():
            first = last = n + 1  # a trailing comment: its own line
        else:
            first, last = layout.reach(n)
        found.append(Directive(file, n + 1, column, codes, first, last, justification, "comment"))


def _codes_and_reason(rest: str, file: str, line: int, column: int, problems: Problems
                      ) -> tuple[frozenset[str] | None, str]:
    m = _CODES.match(rest.lstrip())
    if m is None:
        if rest.lstrip().startswith("=") or _LOOKS_LIKE_CODE.match(rest):
            problems.add(file, line, column, "malformed suppression comment: write "
                         "'# quotactl: disable=KQ506,KQ211' (codes after '=', separated by commas)")
            return frozenset(), ""
        return None, _reason(rest)
    codes = {c.strip().upper() for c in m.group("codes").split(",")}
    for code in sorted(c for c in codes if not is_known_code(c)):
        problems.unknown_code(file, line, column, code, "suppression comment")
    return frozenset(c for c in codes if is_known_code(c)), _reason(rest.lstrip()[m.end():])


def _reason(text: str) -> str:
    return text.strip().lstrip("-:—").strip()


# --- annotations -------------------------------------------------------------------------------

def annotation_directives(loaded: LoadResult, found: list[Directive], problems: Problems) -> None:
    """``metadata.annotations["quotactl.io/ignore"]``: codes (or ``all``) silenced in the object."""
    files = {s.name for s in loaded.sources if s.text and ANNOTATION in s.text}
    if not files:
        return
    annotated = [o for o in loaded.objects if o.ref.file in files and ANNOTATION in _annotations(o)]
    starts: dict[str, list[int]] = {}

    def starts_of(file: str) -> list[int]:
        if file not in starts:
            lines = {d.start.line for d in loaded.documents if d.file == file}
            lines |= {o.ref.pos().line for o in loaded.objects if o.ref.file == file and o.ref.base}
            starts[file] = sorted(lines)
        return starts[file]

    for obj in annotated:
        value = _annotations(obj)[ANNOTATION]
        at = obj.ref.pos(("metadata", "annotations", ANNOTATION), value=True)
        if not isinstance(value, str):
            problems.add(obj.ref.file, at.line, at.column,
                         f"annotation {ANNOTATION} must be a string of codes (\"KQ506,KQ211\") or \"all\"")
            continue
        names = {c.strip().upper() for c in value.split(",") if c.strip()}
        if names == {"ALL"}:
            codes = None
        else:
            for code in sorted(c for c in names if not is_known_code(c)):
                problems.unknown_code(obj.ref.file, at.line, at.column, code, f"annotation {ANNOTATION}")
            codes = frozenset(c for c in names if is_known_code(c))
            if not codes:
                continue
        first, last = _extent(obj, starts_of(obj.ref.file))
        reason = _annotations(obj).get(REASON_ANNOTATION)
        found.append(Directive(obj.ref.file, at.line, at.column, codes, first, last,
                               reason if isinstance(reason, str) else "", "annotation"))


def _annotations(obj: KubeObject) -> dict:
    annotations = obj.metadata.get("annotations")
    return annotations if isinstance(annotations, dict) else {}


def _extent(obj: KubeObject, starts: list[int]) -> tuple[int, int]:
    """The lines of ``obj``: from its start to the start of the next object or document of its file."""
    start = obj.ref.pos().line
    at = bisect.bisect_right(starts, start)
    return start, (starts[at] - 1 if at < len(starts) else 1 << 62)
