"""How many examples a property test draws: all of them on a developer's machine, a fifth in CI.

Hypothesis's own profiles cannot do this: a test's ``@settings(max_examples=N)`` wins over the
loaded profile. The CI profile (``tests/conftest.py``) is also derandomized, so a CI run is
repeatable; ``QUOTACTL_EXAMPLES_SCALE`` sets the fraction by hand (``1`` for the full count in CI,
``4`` for a deeper local search).
"""

from __future__ import annotations

import os

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
SCALE = float(os.environ.get("QUOTACTL_EXAMPLES_SCALE", "0.2" if IN_CI else "1"))
FLOOR = 10  # fewer than this finds little but the strategy's simplest examples


def examples(full: int) -> int:
    """The example budget of a property test whose full budget is ``full``."""
    return max(min(full, FLOOR), round(full * SCALE))
