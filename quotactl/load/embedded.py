"""YAML embedded in a ConfigMap value, with positions in the ConfigMap's file.

A value written as a literal block scalar (``key: |``) maps exactly: embedded line *n* is the
file line after the ``|`` indicator plus *n*, and every column shifts by the block's indentation
(its explicit indentation indicator, else the indentation of its first non-empty line).  Any other
value style (quoted, folded) cannot be mapped line by line; positions then start at the value.
Used for the Kueue manager's ``controller_manager_config.yaml`` and YuniKorn's queue documents.
"""

from __future__ import annotations

import re

from quotactl.diagnostics import Diagnostic
from quotactl.load.document import Document, Pos
from quotactl.load.lazypos import newline_offsets
from quotactl.load.yamlparse import DEFAULT_LIMITS, Limits, parse_documents


def literal_block_offsets(text: str, indicator: Pos) -> tuple[int, int] | None:
    """(0-based file line of the block's first content line, its indentation) for the literal
    block scalar whose ``|`` is at ``indicator`` (1-based), or None if no ``|`` is there.
    Read from the text around the indicator with the text's one newline index: splitting the
    whole file per value was quadratic (a List of 2,000 manager ConfigMaps: 12 s of splitting)."""
    newlines = newline_offsets(text)
    start = indicator.line - 1
    if not 0 <= start <= len(newlines):
        return None
    line_start = newlines[start - 1] + 1 if start else 0
    line_end = newlines[start] if start < len(newlines) else len(text)
    header = text[line_start + indicator.column - 1:line_end]
    if not header.startswith("|"):
        return None
    digits = "".join(c for c in header[1:3] if c.isdigit())
    if digits:
        line = text[line_start:line_end]
        return start + 1, len(line) - len(line.lstrip(" ")) + int(digits)
    content = _CONTENT_LINE.search(text, line_end)
    return start + 1, (len(content.group(1)) if content else 0)


# The next line that is not blank: its indentation.
_CONTENT_LINE = re.compile(r"\n( *)(?=[^\n]*\S)")


def embedded_documents(doc: Document, path: tuple, *, limits: Limits = DEFAULT_LIMITS
                       ) -> tuple[list[Document], list[Diagnostic]]:
    """Parse the string at ``path`` of ``doc`` as YAML documents positioned in ``doc``'s file."""
    value = _get(doc.data, path)
    at = doc.pos(path, value=True)
    offsets = literal_block_offsets(doc.source_text, at) if doc.source_text else None
    if offsets is None:
        # Not a literal block (or no source text, e.g. fast JSON): count lines from the value itself.
        offsets = (at.line - 1, at.column - 1)
    line_offset, column_offset = offsets
    return parse_documents(value, doc.file, limits=limits, line_offset=line_offset, column_offset=column_offset)


def _get(data, path: tuple):
    for part in path:
        data = data[part]
    return data
