"""Rule codes as the user writes them (--select, --ignore, the config file, suppression comments):
known codes and prefixes, and "did you mean" for the rest."""

from __future__ import annotations

import difflib
from functools import cache, lru_cache

# Codes emitted outside the rule registry: a rule that crashed (lint/apply.py).
UNREGISTERED_CODES = frozenset({"QL999"})


@cache
def known_codes() -> frozenset[str]:
    """Every code quotactl can report (imports every rule module: called only when codes are given)."""
    from quotactl.lint.rule import registry

    return frozenset(registry()) | UNREGISTERED_CODES


def is_known_prefix(prefix: str) -> bool:
    """A whole code or the start of one ("KQ5", "YK", "IN003")."""
    return bool(prefix) and any(code.startswith(prefix) for code in known_codes())


def is_known_code(code: str) -> bool:
    return code in known_codes()


# Suggestions cost a fuzzy match against every code: a run asks for them for at most this many
# distinct unknown codes (lint/directives.py).
MAX_SUGGESTED = 200


def unknown_code_message(code: str, what: str, *, suggest: bool = True) -> str:
    """``what``: where the code was written ("--ignore", "per-file-ignores")."""
    close = _suggestions(code) if suggest else ()
    hint = f"; did you mean {', '.join(close)}?" if close else "; `quotactl rules` lists them"
    return f"{what}: unknown rule code {code!r}{hint}"


@lru_cache(maxsize=1024)
def _suggestions(code: str) -> tuple[str, ...]:
    return tuple(difflib.get_close_matches(code, sorted(known_codes()), n=3, cutoff=0.6))


def first_unknown(codes, *, prefixes: bool = True) -> str | None:
    """The first of ``codes`` that names no rule (``prefixes``: a prefix of a code is fine)."""
    check = is_known_prefix if prefixes else is_known_code
    return next((c for c in codes if not check(c)), None)


def split_code_list(text: str) -> tuple[str, ...]:
    """'KQ506, kq211' -> ('KQ506', 'KQ211')."""
    return tuple(p.strip().upper() for p in text.split(",") if p.strip())
