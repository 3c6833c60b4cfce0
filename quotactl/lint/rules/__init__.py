"""Every rule module lives below this package; importing it registers them all."""

import importlib
import pkgutil


def _import_all() -> None:
    for info in pkgutil.walk_packages(__path__, __name__ + "."):
        importlib.import_module(info.name)


_import_all()
