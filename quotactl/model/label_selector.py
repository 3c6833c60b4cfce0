"""Label selectors as kubectl's ``-l/--selector`` takes them (``a=b,c!=d,e in (x,y),!f,g``), read
into the model's ``LabelSelector`` so that one ``matches`` decides every selector, written or typed.

The grammar and the checks are Kubernetes' (``k8s.io/apimachinery/pkg/labels/selector.go``,
``Parse`` and ``NewRequirement``): requirements separated by commas, ``=``/``==``/``!=`` with one
value, ``in``/``notin`` with a non-empty set in parentheses, a bare key (exists) and ``!key``
(does not exist); keys are qualified names, values label values. ``>``/``<`` (Gt/Lt) are refused:
a ``LabelSelector`` has no such operator.
"""

from __future__ import annotations

import re

from quotactl.model.kueue import LabelSelector, LabelSelectorRequirement
from quotactl.model.validation import label_value_errors, qualified_name_errors

# Kubernetes' lexer: these characters end an identifier; whitespace separates tokens.
_TOKEN = re.compile(r"\s*(==|!=|[=!(),<>]|[^\s=!(),<>]+)")
_SET_OPERATORS = {"in": "In", "notin": "NotIn"}


class SelectorError(ValueError):
    """A selector that kubectl would refuse; the message says where and why."""


def parse_selector(text: str) -> LabelSelector:
    """``text`` as a ``LabelSelector``; an empty text selects everything. Raises SelectorError."""
    tokens = _tokens(text)
    requirements: list[LabelSelectorRequirement] = []
    pos = 0
    while pos < len(tokens):
        requirement, pos = _requirement(tokens, pos, text)
        requirements.append(requirement)
        if pos < len(tokens):
            if tokens[pos] != ",":
                raise SelectorError(f"{text!r}: expected ',' before {tokens[pos]!r}")
            pos += 1
            if pos == len(tokens):
                raise SelectorError(f"{text!r}: a requirement is missing after the last ','")
    return LabelSelector({}, tuple(requirements), ())


def _tokens(text: str) -> list[str]:
    out = []
    pos = 0
    stripped = text.rstrip()
    while pos < len(stripped):
        m = _TOKEN.match(stripped, pos)
        if m is None:  # only trailing whitespace is left unmatched, and that was stripped
            break
        out.append(m.group(1))
        pos = m.end()
    return out


def _requirement(tokens: list[str], pos: int, text: str) -> tuple[LabelSelectorRequirement, int]:
    if tokens[pos] == "!":
        key = _key(tokens, pos + 1, text)
        return _made(key, "DoesNotExist", None), pos + 2
    key = _key(tokens, pos, text)
    pos += 1
    op = tokens[pos] if pos < len(tokens) else ","
    if op == ",":
        return _made(key, "Exists", None), pos
    if op in ("=", "==", "!="):
        value = tokens[pos + 1] if pos + 1 < len(tokens) and tokens[pos + 1] not in ",()=!<>" else ""
        _check_value(value, text)
        return _made(key, "NotIn" if op == "!=" else "In", (value,)), pos + (2 if value else 1)
    if op.lower() in _SET_OPERATORS:
        values, pos = _set(tokens, pos + 1, text)
        return _made(key, _SET_OPERATORS[op.lower()], values), pos
    if op in ("<", ">"):
        raise SelectorError(f"{text!r}: the {op} operator is not supported (use =, !=, in, notin, or a bare key)")
    raise SelectorError(f"{text!r}: expected =, ==, !=, in or notin after {key!r}, found {op!r}")


def _key(tokens: list[str], pos: int, text: str) -> str:
    key = tokens[pos] if pos < len(tokens) else ""
    if not key or key in ",()=!<>" or key == "!=":
        raise SelectorError(f"{text!r}: a label key is missing")
    errors = qualified_name_errors(key)
    if errors:
        raise SelectorError(f"{text!r}: label key {key!r}: {errors[0]}")
    return key


def _set(tokens: list[str], pos: int, text: str) -> tuple[tuple[str, ...], int]:
    """``( v1, v2 )`` -> the values and the position after ``)``."""
    if pos >= len(tokens) or tokens[pos] != "(":
        raise SelectorError(f"{text!r}: 'in' and 'notin' take a set of values in parentheses: key in (a,b)")
    values: list[str] = []
    pos += 1
    while pos < len(tokens) and tokens[pos] != ")":
        if tokens[pos] != ",":
            _check_value(tokens[pos], text)
            values.append(tokens[pos])
        pos += 1
    if pos >= len(tokens):
        raise SelectorError(f"{text!r}: ')' is missing")
    if not values:
        raise SelectorError(f"{text!r}: for 'in', 'notin' operators, values set can't be empty")
    return tuple(dict.fromkeys(values)), pos + 1


def _check_value(value: str, text: str) -> None:
    errors = label_value_errors(value) if value else []
    if errors:
        raise SelectorError(f"{text!r}: label value {value!r}: {errors[0]}")


def _made(key: str, operator: str, values: tuple[str, ...] | None) -> LabelSelectorRequirement:
    return LabelSelectorRequirement(key, operator, values, ())
