"""Path globs of --exclude and the config file's exclude / per-file-ignores, matched the way ruff
and .gitignore match them:

* a pattern without ``/`` matches any one path component (``*.tpl.yaml``, ``templates``);
* a pattern with ``/`` is anchored at its root (the config file's directory, or the current
  directory for the command line): ``charts/*/templates``, ``deploy/**/kustomization.yaml``;
* ``*`` and ``?`` stay inside one component, ``**`` spans any number of them;
* a pattern that matches a directory matches everything below it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path


def _translate(pattern: str) -> str:
    """A glob as a regular expression over '/'-separated paths."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and "]" in pattern[i + 2:]:
            end = pattern.index("]", i + 2)
            body = pattern[i + 1:end]
            negated = body[:1] in ("!", "^")  # [!a] as in fnmatch, [^a] as in bash
            out.append("[" + ("^" if negated else "") + body[negated:].replace("\\", "\\\\") + "]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)


@dataclass(frozen=True)
class Glob:
    pattern: str
    root: str  # absolute directory anchored patterns are relative to

    @cached_property
    def _regex(self) -> re.Pattern:
        pattern = self.pattern.strip("/")
        try:
            return re.compile(_translate(pattern) + r"\Z")
        except re.error:  # a malformed class such as "[!]": the text itself, as fnmatch reads it
            return re.compile(re.escape(pattern) + r"\Z")

    @property
    def anchored(self) -> bool:
        return "/" in self.pattern.rstrip("/")

    def matches(self, path: str | Path) -> bool:
        """Whether ``path`` (as given, relative to the current directory, or absolute) or one of its
        parent directories matches."""
        absolute = Path(os.path.abspath(path))
        if not self.anchored:
            return any(self._regex.match(part) for part in absolute.parts[1:])
        try:
            rel = absolute.relative_to(self.root).parts
        except ValueError:
            return False
        return any(self._regex.match("/".join(rel[:n])) for n in range(1, len(rel) + 1))


@dataclass(frozen=True)
class GlobSet:
    globs: tuple[Glob, ...] = ()

    def matches(self, path: str | Path) -> bool:
        return any(g.matches(path) for g in self.globs)

    def __bool__(self) -> bool:
        return bool(self.globs)


def glob_set(patterns, root: str | Path | None = None) -> GlobSet:
    base = os.path.abspath(root or os.getcwd())
    return GlobSet(tuple(Glob(p, base) for p in patterns))
