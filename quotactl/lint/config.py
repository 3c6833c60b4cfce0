"""``quotactl lint``'s configuration file: a ``[tool.quotactl]`` table in ``pyproject.toml`` or a
``.quotactl.yaml``, found the way ruff finds its own (the nearest one from the current directory
upward; a pyproject.toml without the table is passed over). Every mistake in it is one
``file:line: message`` error (``ConfigError``), never a silent default.

Keys (docs/configuration.md): select, ignore, per-file-ignores, severity, kueue-version, output,
exclude, force-exclude, min-severity, strict.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from quotactl.lint.codes import first_unknown, split_code_list, unknown_code_message
from quotactl.lint.globs import Glob, GlobSet, glob_set

CONFIG_NAMES = (".quotactl.yaml", ".quotactl.yml")
PYPROJECT = "pyproject.toml"
TABLE = ("tool", "quotactl")
OUTPUT_FORMATS = ("table", "plain", "wide", "json", "yaml", "sarif", "github")  # lint's -o choices (a test keeps them equal)
SEVERITY_LEVELS = ("error", "warning", "info")
SEVERITY_OVERRIDES = (*SEVERITY_LEVELS, "off")
KEYS = ("select", "ignore", "per-file-ignores", "severity", "kueue-version", "output", "exclude",
        "force-exclude", "min-severity", "strict")


class ConfigError(ValueError):
    """One line: ``file:line: what is wrong``."""


@dataclass(frozen=True)
class LintConfig:
    path: str | None = None  # the file read; None when there is none
    root: str | None = None  # its directory: the root of exclude and per-file-ignores globs
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    severity: tuple[tuple[str, str], ...] = ()  # code or prefix -> error | warning | info | off
    kueue_version: str | None = None
    output: str | None = None
    exclude: tuple[str, ...] = ()
    force_exclude: bool | None = None
    min_severity: str | None = None
    strict: bool | None = None

    def excluded(self, command_line: tuple[str, ...] = ()) -> GlobSet:
        """--exclude (anchored at the current directory) and the file's exclude (at its folder)."""
        return GlobSet(glob_set(command_line).globs + glob_set(self.exclude, self.root).globs)

    def per_file_rules(self) -> tuple[tuple[Glob, tuple[str, ...]], ...]:
        """per-file-ignores as globs anchored at the config file's folder."""
        return tuple((Glob(pattern, self.root), codes) for pattern, codes in self.per_file_ignores)


# --- finding the file ------------------------------------------------------------------------

def discover(start: Path | None = None) -> Path | None:
    """The nearest config file from ``start`` (the current directory) upward, or None."""
    try:
        here = (start or Path.cwd()).resolve()
    except OSError:  # the current directory was removed
        return None
    for folder in (here, *here.parents):
        for name in CONFIG_NAMES:
            if _is_file(folder / name):
                return _shown(folder / name)
        pyproject = folder / PYPROJECT
        if _is_file(pyproject) and _has_table(_shown(pyproject)):
            return _shown(pyproject)
    return None


def _is_file(path: Path) -> bool:
    """A directory we may not read holds no config for us (is_file raises on EACCES)."""
    try:
        return path.is_file()
    except OSError:
        return False


def _shown(path: Path) -> Path:
    """``path`` as messages show it: relative to the current directory (``../pyproject.toml``)."""
    return Path(os.path.relpath(path))


def _has_table(pyproject: Path) -> bool:
    try:
        text = pyproject.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return "tool.quotactl" in text and _toml_table(text, str(pyproject)) is not None


def load_config(path: str | Path) -> LintConfig:
    """Read and check one config file; raises ConfigError."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the config file: {getattr(exc, 'strerror', None) or exc}") from None
    if p.name.endswith(".toml"):
        table = _toml_table(text, str(path))
        if table is None:
            raise ConfigError(f"{path}:1: no [tool.quotactl] table")
        locate = _TomlLocator(text)
    else:
        table, locate = _yaml_table(text, str(path))
    return _checked(table, str(path), locate)


# --- TOML ------------------------------------------------------------------------------------

def _toml_table(text: str, name: str) -> dict | None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        at = re.search(r"\(at line (\d+), column \d+\)", message)
        line = at.group(1) if at else "1"
        raise ConfigError(f"{name}:{line}: invalid TOML: {re.sub(r' ?[(]at .*[)]', '', message)}") from None
    except RecursionError:  # tomllib recurses into nested arrays and inline tables
        raise ConfigError(f"{name}:1: invalid TOML: nested too deep") from None
    table = data.get("tool", {}).get("quotactl") if isinstance(data.get("tool"), dict) else None
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{name}:1: tool.quotactl must be a table")
    return table


class _TomlLocator:
    """tomllib keeps no positions: the line of a key path is found in the text, from the
    [tool.quotactl...] section on (good enough to point at the mistake)."""

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.start = next((i for i, line in enumerate(self.lines) if "tool.quotactl" in line), 0)

    def __call__(self, path: tuple, token: str | None = None) -> int:
        at = self.start
        for part in (*(p for p in path if isinstance(p, str)), *((token,) if token else ())):
            word = re.compile(r"(?<![\w-])['\"]?" + re.escape(part) + r"['\"]?(?![\w-])", re.IGNORECASE)
            at = next((i for i in range(at, len(self.lines)) if word.search(self.lines[i])), at)
        return at + 1


# --- YAML ------------------------------------------------------------------------------------

def _yaml_table(text: str, name: str):
    from quotactl.load.yamlparse import parse_documents

    docs, diags = parse_documents(text, name)
    errors = [d for d in diags if d.input_error]
    if errors:
        raise ConfigError(f"{name}:{errors[0].line}: {errors[0].message}")
    data = docs[0].data if docs else None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{name}:1: the config file must be a mapping of keys (select, ignore, ...)")
    doc = docs[0] if docs else None

    def locate(path: tuple, token: str | None = None) -> int:
        return doc.pos(path, value=token is not None).line if doc is not None else 1

    return data, locate


# --- checking --------------------------------------------------------------------------------

def _checked(table: dict, name: str, locate) -> LintConfig:
    def fail(path: tuple, message: str, token: str | None = None):
        raise ConfigError(f"{name}:{locate(path, token)}: {message}")

    values: dict = {"path": name, "root": os.path.abspath(Path(name).parent)}
    for key, value in table.items():
        if key not in KEYS:
            close = difflib.get_close_matches(str(key), KEYS, n=1, cutoff=0.6)
            fail((str(key),), f"unknown key {key!r}" + (f"; did you mean {close[0]!r}?" if close else
                                                        f" (known: {', '.join(KEYS)})"))
        attr = key.replace("-", "_")
        values[attr] = _CHECKS[key](value, (key,), fail)
    return LintConfig(**values)


def _codes(value, path: tuple, fail, *, what: str | None = None) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
        fail(path, f"{'.'.join(map(str, path))}: give a list of rule codes (e.g. [\"KQ506\", \"YK1\"])")
    codes: list[str] = []
    for i, item in enumerate(items):
        bad = first_unknown(split_code_list(item))
        if bad is not None:
            at = (*path, i) if isinstance(value, list) else path
            fail(at, unknown_code_message(bad, what or ".".join(map(str, path))), token=bad)
        codes.extend(split_code_list(item))
    return tuple(codes)


def _globs(value, path: tuple, fail) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        fail(path, f"{path[0]}: give a list of path globs (e.g. [\"charts/**/templates\"])")
    return tuple(value)


def _mapping(value, path: tuple, fail, example: str) -> dict:
    if not isinstance(value, dict):
        fail(path, f"{path[0]}: give a table/mapping ({example})")
    return value


def _per_file_ignores(value, path, fail):
    table = _mapping(value, path, fail, 'glob = ["CODE", ...]')
    return tuple((str(glob), _codes(codes, (*path, str(glob)), fail, what=f"per-file-ignores {glob!r}"))
                 for glob, codes in table.items())


def _severity(value, path, fail):
    table = _mapping(value, path, fail, 'CODE = "error" | "warning" | "info" | "off"')
    out = []
    for code, level in table.items():
        key = str(code).upper()
        _codes(key, (*path, str(code)), fail, what="severity")
        if level not in SEVERITY_OVERRIDES:
            fail((*path, str(code)), f"severity of {key}: {level!r} is not one of {', '.join(SEVERITY_OVERRIDES)}",
                 token=str(level) if isinstance(level, str) else None)
        out.append((key, level))
    return tuple(out)


def _choice(choices: tuple[str, ...]):
    def check(value, path, fail):
        if value not in choices:
            fail(path, f"{path[0]}: {value!r} is not one of {', '.join(choices)}")
        return value
    return check


def _boolean(value, path, fail):
    if not isinstance(value, bool):
        fail(path, f"{path[0]}: give true or false, not {value!r}")
    return value


def _kueue_version(value, path, fail):
    from quotactl.model.kueue_versions import parse_release

    try:
        return parse_release(str(value))
    except ValueError as exc:
        fail(path, str(exc).replace("--kueue-version", "kueue-version"))


_CHECKS = {
    "select": _codes,
    "ignore": _codes,
    "per-file-ignores": _per_file_ignores,
    "severity": _severity,
    "kueue-version": _kueue_version,
    "output": _choice(OUTPUT_FORMATS),
    "exclude": _globs,
    "force-exclude": _boolean,
    "min-severity": _choice(SEVERITY_LEVELS),
    "strict": _boolean,
}


def selection(config: LintConfig, select: tuple[str, ...], ignore: tuple[str, ...]
              ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(select, ignore) of a run, as ruff resolves them: a --select on the command line replaces the
    file's select and ignore; a --ignore adds to the file's."""
    if select:
        return select, ignore
    return config.select or (), (*config.ignore, *ignore)
