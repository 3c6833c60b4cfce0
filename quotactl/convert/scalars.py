"""Numbers the round trip cannot reproduce are kept as the text the user wrote.

``convert`` rewrites a file, so a scalar it does not change need not go through a Python value.
Two kinds would not survive one: an integer with more digits than Python converts between text and
``int`` (``sys.get_int_max_str_digits()``, 4,300 by default: the limit guards against quadratic
conversions, so it stays), and a float that overflows to infinity or underflows to zero
(``1e99999`` would come back as ``.inf``).  Such a scalar becomes a ``KeptNumber``: a ``str`` holding
the original text, written back byte for byte, plain, under the tag it was read with."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.representer import RoundTripRepresenter

INT_TAG = "tag:yaml.org,2002:int"
FLOAT_TAG = "tag:yaml.org,2002:float"


class KeptNumber(str):
    """A number's original text, with the YAML tag it resolved to (the writer needs it to emit
    the text plain: a plain scalar that resolves back to its own tag is written untagged)."""

    tag: str

    def __new__(cls, text: str, tag: str) -> KeptNumber:
        kept = super().__new__(cls, text)
        kept.tag = tag
        return kept


def float_is_exact_enough(text: str, value: float) -> bool:
    """False when ``value`` lost what ``text`` says: an overflow to infinity or an underflow of a
    nonzero number to zero (the infinity and NaN literals are what they say)."""
    if math.isinf(value) or math.isnan(value):
        return text.strip().lstrip("+-").lower() in (".inf", "inf", "infinity", ".nan", "nan")
    if value == 0.0:
        mantissa = re.split("[eE]", text, maxsplit=1)[0]
        return not any(c in "123456789" for c in mantissa)
    return True


class TextKeepingConstructor(RoundTripConstructor):
    """ruamel.yaml's round-trip constructor; a number it cannot hold exactly is kept as text."""

    def construct_yaml_int(self, node: Any) -> Any:
        try:
            return super().construct_yaml_int(node)
        except ValueError:  # more digits than int() converts (the only failure of a resolved int)
            return KeptNumber(node.value, INT_TAG)

    def construct_yaml_float(self, node: Any) -> Any:
        value = super().construct_yaml_float(node)
        return value if float_is_exact_enough(node.value, float(value)) else KeptNumber(node.value, FLOAT_TAG)


# The constructor table holds functions, not method names: the overrides are registered again.
TextKeepingConstructor.add_constructor(INT_TAG, TextKeepingConstructor.construct_yaml_int)
TextKeepingConstructor.add_constructor(FLOAT_TAG, TextKeepingConstructor.construct_yaml_float)


class TextKeepingRepresenter(RoundTripRepresenter):
    """ruamel.yaml's round-trip representer; a ``KeptNumber`` is written as its text."""


def _represent_kept(representer: RoundTripRepresenter, data: KeptNumber) -> Any:
    return representer.represent_scalar(data.tag, str(data))


TextKeepingRepresenter.add_representer(KeptNumber, _represent_kept)


# -- JSON --------------------------------------------------------------------------------------
def load_json_keeping_numbers(text: str) -> Any:
    """``json.loads``, with integers of too many digits and inexact floats kept as ``KeptNumber``."""
    return json.loads(text, parse_int=_json_int, parse_float=_json_float)


def _json_int(text: str) -> int | KeptNumber:
    try:
        return int(text)
    except ValueError:
        return KeptNumber(text, INT_TAG)


def _json_float(text: str) -> float | KeptNumber:
    value = float(text)
    return value if float_is_exact_enough(text, value) else KeptNumber(text, FLOAT_TAG)


def dump_json_keeping_numbers(data: Any, indent: int | None) -> str:
    """``json.dumps`` of ``data``, each ``KeptNumber`` written back as its bare text.  The json
    module writes a str only quoted, so each is put in as a placeholder string first (a prefix no
    string of ``data`` holds, so it cannot be mistaken for the user's text) and replaced after."""
    prefix = _placeholder_prefix(data)
    kept = _swap_in_placeholders(data, prefix)
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    if not kept:
        return text
    return re.sub(f'"{re.escape(prefix)}(\\d+)"', lambda m: str(kept[int(m.group(1))]), text)


def _containers(data: Any):
    """Every dict and list in ``data`` (iterative: the depth is the user's)."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, (dict, list)):
            yield value
            stack.extend(value.values() if isinstance(value, dict) else value)


def _swap_in_placeholders(data: Any, prefix: str) -> list[KeptNumber]:
    """Replace, in place, each ``KeptNumber`` value by ``prefix`` + its index in the list returned."""
    kept: list[KeptNumber] = []
    for container in _containers(data):
        slots = container.keys() if isinstance(container, dict) else range(len(container))
        for slot in list(slots):
            if isinstance(container[slot], KeptNumber):
                kept.append(container[slot])
                container[slot] = f"{prefix}{len(kept) - 1}"
    return kept


_PREFIX = re.compile(r"quotactl-kept-(\d{1,6})-")  # a longer number cannot be a prefix we pick


def _placeholder_prefix(data: Any) -> str:
    """``quotactl-kept-N-`` with the smallest N that no string (key or value) of ``data`` holds."""
    taken: set[int] = set()
    for container in _containers(data):
        texts = list(container) + list(container.values()) if isinstance(container, dict) else container
        for text in texts:
            if isinstance(text, str) and "quotactl-kept-" in text:
                taken.update(int(n) for n in _PREFIX.findall(text))
    n = next(i for i in range(len(taken) + 1) if i not in taken)
    return f"quotactl-kept-{n}-"
