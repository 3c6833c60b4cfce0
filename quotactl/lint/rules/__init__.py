"""Every rule module lives below this package; ``import_rules`` imports them, which registers
them. A lint of one dialect imports only that dialect's rules (and the engine they ask)."""

import importlib
import pkgutil
from functools import cache


@cache
def import_rules(dialect: str | None = None) -> None:
    """Import the rule modules of ``dialect`` (a subpackage name), or every rule module."""
    if dialect is not None:
        package = importlib.import_module(f"{__name__}.{dialect}")
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)
        return
    for info in pkgutil.walk_packages(__path__, __name__ + "."):
        importlib.import_module(info.name)
