"""A documentation snippet's placeholder values: unknown, not wrong.

``lint`` sets a finding about a ``<placeholder>`` (or an elided ``...`` value) aside, like a
suppressed one (counted, listed with --show-suppressed, marked in SARIF): ``name: <your-queue>``
is not an RFC 1123 name and ``nominalQuota: <cpu>`` is not a quantity, but neither is the mistake.
Everything else in the file is reported.

An engine command cannot answer with a value it does not know: a placeholder where a number, a
quantity or one of a set of values is read is an input error (IN014, exit 2) at the placeholder.
A placeholder name (``namespace: <team>``) is only a label to the engines and stays.
"""

from __future__ import annotations

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.lint.suppress import IN_SOURCE, Suppression
from quotactl.load.objects import Dialect, LoadResult
from quotactl.load.snippets import ELISION, Placeholder, PlaceholderIndex

# A value judged as a type, an allowed value or a quantity (not a name's format): the engines
# compute with it. Kueue's schema codes (wrong type, unsupported value, invalid quantity) and
# YuniKorn's (wrong YAML type, invalid quantity, unknown node sorting policy).
VALUE_CODES = frozenset({"KQ002", "KQ003", "KQ008", "YK003", "YK110", "YK128"})


# Findings about a key itself, not its value (an unknown or a duplicate key): always reported.
KEY_CODES = frozenset({"KQ007", "YK002", "YK004"})


def _what(p: Placeholder) -> str:
    return "an elided value ('...')" if p.text == ELISION else f"the placeholder {p.text}"


class Placeholders:
    """lint's view: why a finding is set aside, when it is about a placeholder's value, or when it
    relates to an object one of whose numbers or quantities is a placeholder (a workload that
    "can never fit" a ClusterQueue whose quota is ``<cpu-quota>`` is not known to)."""

    def __init__(self, loaded: LoadResult, diags: list[Diagnostic]):
        self.index = PlaceholderIndex(loaded.sources)
        self.unknown_objects: dict[str, Placeholder] = {}  # "file:line" of an object -> its unknown value
        if self.index:
            valued = {d.object: p for d in diags if (p := self._about(d)) is not None and d.code in VALUE_CODES}
            for o in loaded.objects:
                if o.display in valued:
                    self.unknown_objects[f"{o.ref.file}:{o.ref.pos().line}"] = valued[o.display]

    def _about(self, d: Diagnostic) -> Placeholder | None:
        if d.code in KEY_CODES:
            return None
        return self.index.about(d.file, d.line, d.column, d.field)

    def suppression(self, d: Diagnostic) -> Suppression | None:
        if not self.index:
            return None
        p = self._about(d)
        if p is not None:
            return Suppression(IN_SOURCE, f"{_what(p)}: unknown until it is filled in", d.file, p.line, p.column)
        for where in d.related:
            p = self.unknown_objects.get(where)
            if p is not None:
                return Suppression(IN_SOURCE, f"depends on {_what(p)} at {where}: unknown until it is filled in",
                                   where.rsplit(":", 1)[0], p.line, p.column)
        return None


def needed_placeholders(loaded: LoadResult) -> list[Diagnostic]:
    """IN014 input errors for the placeholders an engine command would have to compute with, one
    per placeholder, in file order; [] when the input holds no snippet."""
    index = PlaceholderIndex(loaded.sources)
    if not index:
        return []
    files = index.files
    objects = [o for o in loaded.objects if o.ref.file in files]
    out: dict[Placeholder, Diagnostic] = {}
    for d in _findings(objects):
        p = index.about(d.file, d.line, d.column, d.field) if d.code in VALUE_CODES else None
        if p is not None and p not in out:
            field = _field_of(p, d.field)
            out[p] = Diagnostic("IN014", Severity.ERROR, f"{field} of {d.object or 'the object'} is {_what(p)}: the "
                                "answer depends on its value; fill it in", d.file, p.line, p.column,
                                object=d.object, field=field, input_error=True)
    return sorted(out.values(), key=Diagnostic.sort_key)


def _field_of(p: Placeholder, field: str | None) -> str:
    """The placeholder's field: the finding's, or its key below the finding's (YuniKorn reports a
    quantity on its resource map)."""
    if not field or p.key is None or field.rsplit(".", 1)[-1].rsplit("[", 1)[-1].strip("]\"'") == p.key:
        return field or p.key or "a value"
    return f"{field}.{p.key}"


def _findings(objects) -> list[Diagnostic]:
    """The schema findings of the Kueue objects and the lint findings of the YuniKorn configs."""
    from quotactl.lint.schema import validate_object

    kueue = [o for o in objects if o.dialect in (Dialect.KUEUE, Dialect.NEUTRAL)]
    found = [d for o in kueue for d in validate_object(o)]
    yunikorn = [o for o in objects if o.dialect == Dialect.YUNIKORN]
    if yunikorn:
        from quotactl.lint.yunikorn import lint_yunikorn

        found.extend(lint_yunikorn(yunikorn))
    return found
