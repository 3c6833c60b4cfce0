"""Every example the README and the docs show runs as shown, so the documentation cannot drift.

Each ```console block of README.md, docs/*.md and fixtures/**/README.md is a list of examples:

    $ quotactl COMMAND ...        # exit 1: a comment (here saying the command exits 1)
    a line the command prints     <- must appear in the output (stdout, then stderr), in order
    ...                           <- elision: any lines; inside a line, `...` stands for any text

A command continues on the next line after a trailing backslash; a line holding only a `# comment`
continues the comment of the command above it. A comment starting with `exit N` gives the exit
status; without one the command must exit 0. Every command runs through bash (pipes, redirections
and `&&` as written) with `quotactl` a shim for `python -m quotactl`. The examples of one block run
in order in one directory, as one shell session: it shows the repository's directories (so
`fixtures/...` reads the bundled fixtures) and keeps the files a command writes (`> quotactl.sarif`,
`cp -r fixtures/x manifests`) out of the repository.

Skipped, each with its reason in the test report (`pytest -rs`): a command that reads a live
cluster (`kubectl`, `--from-cluster`), one that reads a file only such a command writes, and the
README's second set-up command (the whole test suite, this test included). Anything else that
cannot run (a placeholder path) fails: use a bundled fixture, or show a synopsis in a ```text block.
The README's first set-up command runs as `quotactl ...` (its install part is the environment
these tests run in).
"""

from __future__ import annotations

import difflib
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.helpers import ROOT

DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "fixtures").glob("**/README.md")])
ELISION = "..."
EXIT_COMMENT = re.compile(r"exit (\d+)\b")
LIVE_CLUSTER = re.compile(r"(^|[\s|;&(])kubectl\s|--from-cluster\b")
REDIRECT_TARGET = re.compile(r">\s*([^\s|&;]+)")
SETUP_QUOTACTL = re.compile(r"\.venv/bin/quotactl\s+(?P<args>.*)$")


@dataclass
class Example:
    document: Path
    line: int  # 1-based line of the `$ ...` in the document
    command: str
    comment: str = ""
    shown: list[tuple[int, str]] = field(default_factory=list)  # (line, text) the document shows
    skip: str | None = None
    block: int = 0  # the first line of its console block: the examples of one block share a directory

    @property
    def where(self) -> str:
        return f"{self.document.relative_to(ROOT)}:{self.line}"

    @property
    def expected_exit(self) -> int:
        match = EXIT_COMMENT.match(self.comment)
        return int(match.group(1)) if match else 0


def split_comment(line: str) -> tuple[str, str]:
    """The shell code and its trailing comment (a `#` outside quotes, at the start or after a blank)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), ""


def console_blocks(text: str):
    """(first line number, lines) of each ```console block."""
    block, start = None, 0
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            if block is not None:
                yield start, block
                block = None
            elif line.strip() == "```console":
                block, start = [], number + 1
        elif block is not None:
            block.append(line)


def examples_of_block(document: Path, start: int, lines: list[str]) -> list[Example]:
    examples: list[Example] = []
    continued = False  # the previous command line ended with a backslash
    for number, line in enumerate(lines, start):
        if continued:
            code, comment = split_comment(line)
            current = examples[-1]
            current.command = current.command[:-1].rstrip() + " " + code.strip()
            current.comment = " ".join(filter(None, [current.comment, comment]))
            continued = code.endswith("\\")
        elif line.startswith("$ "):
            code, comment = split_comment(line[2:])
            examples.append(Example(document, number, code, comment))
            continued = code.endswith("\\")
        elif line.strip().startswith("#") and examples and not examples[-1].shown:
            examples[-1].comment += " " + line.strip().lstrip("#").strip()
        elif line.strip() and examples:
            examples[-1].shown.append((number, line.rstrip()))
    mark_skipped(examples)
    for example in examples:
        example.block = start
    return examples


def mark_skipped(examples: list[Example]) -> None:
    """Skip what reads a live cluster, and what reads a file that only such a command writes."""
    written_by_skipped: dict[str, Example] = {}
    for example in examples:
        if LIVE_CLUSTER.search(example.command):
            example.skip = "reads a live cluster (kubectl or --from-cluster)"
        reads = [name for name, writer in written_by_skipped.items()
                 if re.search(rf"(^|\s){re.escape(name)}(\s|$)", example.command)]
        if reads and not example.skip:
            example.skip = f"reads {reads[0]}, which only {written_by_skipped[reads[0]].where} (skipped) writes"
        if example.skip:
            for name in REDIRECT_TARGET.findall(example.command):
                if not (ROOT / name).exists():
                    written_by_skipped[name] = example


def setup_examples() -> list[Example]:
    """The README's two set-up commands: the first one's quotactl part runs; the second is the whole suite."""
    readme = ROOT / "README.md"
    lines = readme.read_text().splitlines()
    first_block = lines.index("```") + 1
    install, test_suite = lines[first_block], lines[first_block + 1]
    match = SETUP_QUOTACTL.search(install)
    assert match, f"README.md:{first_block + 1}: the set-up command no longer ends with `.venv/bin/quotactl ...`"
    # "lints the bundled example cluster (clean: exit 0)", as the README says under the block.
    runnable = Example(readme, first_block + 1, "quotactl " + match.group("args"), "exit 0")
    suite = Example(readme, first_block + 2, test_suite,
                    skip="runs the whole test suite, this test included (the coordinator's and CI's job)")
    return [runnable, suite]


def all_examples() -> list[Example]:
    examples = setup_examples()
    for document in DOCUMENTS:
        for start, lines in console_blocks(document.read_text()):
            examples.extend(examples_of_block(document, start, lines))
    return examples


EXAMPLES = all_examples()


@pytest.fixture(scope="module")
def shell(tmp_path_factory) -> tuple[Path, dict]:
    """A scratch directory and the environment: `quotactl` on PATH is a shim for `python -m quotactl`."""
    home = tmp_path_factory.mktemp("tour")
    bin_dir = home / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "quotactl"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m quotactl "$@"\n')
    shim.chmod(0o755)
    env = {key: value for key, value in os.environ.items()
           if key not in {"COLUMNS", "LINES", "FORCE_COLOR", "TERM", "QUOTACTL_KUEUE_VERSION"}}
    env.update(NO_COLOR="1", PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '/usr/bin:/bin')}",
               PYTHONPATH=str(ROOT))
    return home, env


# Per console block: its directory and how many of its examples have run there. A block reads as one
# shell session (`cp -r fixtures/x manifests`, then commands on manifests/), so an example selected
# alone (-k) first runs the examples above it in its block.
SESSIONS: dict[tuple[Path, int], list] = {}


def block_directory(example: Example, home: Path) -> Path:
    """The block's directory: the repository's top-level directories as symlinks (what examples read:
    fixtures/, schemas/, ...), and room for the files an example writes. No top-level file is linked,
    so a write (`> pyproject.toml`) lands here, never in the repository, and no config file of the
    repository is found from here."""
    key = (example.document, example.block)
    if key not in SESSIONS:
        work = home / f"block{len(SESSIONS)}"
        work.mkdir()
        for entry in ROOT.iterdir():
            if entry.is_dir() and entry.name not in {".git", ".venv"}:
                (work / entry.name).symlink_to(entry)
        SESSIONS[key] = [work, 0]
    return SESSIONS[key][0]


def run(example: Example, shell) -> subprocess.CompletedProcess:
    home, env = shell
    work = block_directory(example, home)
    session = SESSIONS[(example.document, example.block)]
    block = [e for e in EXAMPLES if (e.document, e.block) == (example.document, example.block)]
    for earlier in block[session[1]:block.index(example)]:
        if not earlier.skip:
            subprocess.run(["bash", "-o", "pipefail", "-c", earlier.command], cwd=work, env=env,
                           capture_output=True, timeout=600)
    session[1] = block.index(example) + 1
    return subprocess.run(["bash", "-o", "pipefail", "-c", example.command], cwd=work, env=env,
                          capture_output=True, text=True, timeout=600)


def line_pattern(shown: str) -> re.Pattern:
    """A shown line as a pattern: `...` inside it stands for any text."""
    return re.compile(".*?".join(re.escape(part) for part in shown.split(ELISION)) + r"\Z")


def unmatched_lines(example: Example, output: list[str]) -> list[str]:
    """The problems with the shown lines: missing from the output, or out of order."""
    problems, position = [], 0
    for number, shown in example.shown:
        if shown.strip() == ELISION:
            continue
        pattern = line_pattern(shown)
        later = next((i for i in range(position, len(output)) if pattern.match(output[i])), None)
        if later is not None:
            position = later + 1
            continue
        anywhere = any(pattern.match(line) for line in output)
        closest = difflib.get_close_matches(shown, output, n=1, cutoff=0.5)
        problems.append(
            f"  {example.document.relative_to(ROOT)}:{number} "
            f"{'is out of order in' if anywhere else 'is missing from'} the output:\n    {shown}"
            + (f"\n    closest actual line:\n    {closest[0]}" if closest and not anywhere else ""))
    return problems


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.where)
def test_example_runs_as_shown(example: Example, shell):
    if example.skip:
        pytest.skip(f"{example.where} `{example.command}`: {example.skip}")
    result = run(example, shell)
    output = [line.rstrip() for line in result.stdout.splitlines()] + \
        [line.rstrip() for line in result.stderr.splitlines()]
    head = "\n".join(f"    {line}" for line in output[:30])
    if result.returncode != example.expected_exit:
        pytest.fail(f"{example.where}: `{example.command}` exited {result.returncode}, the document says "
                    f"{example.expected_exit} (a command that does not exit 0 says `# exit N` after it)\n"
                    f"  output (first 30 lines):\n{head}", pytrace=False)
    problems = unmatched_lines(example, output)
    if problems:
        pytest.fail(f"{example.where}: `{example.command}`: lines the document shows are not what it prints "
                    "(if the output changed on purpose, update the document's lines)\n"
                    + "\n".join(problems) + f"\n  actual output (first 30 lines):\n{head}", pytrace=False)


def test_the_tour_is_found():
    """The parser sees the README's tour (a guard against a parser that silently finds nothing)."""
    readme = [e for e in EXAMPLES if e.document.name == "README.md" and e.document.parent == ROOT]
    assert len(readme) > 30
    broken = next(e for e in readme if e.command.startswith("quotactl lint fixtures/broken"))
    assert broken.expected_exit == 1 and broken.shown


def test_the_matcher_reports_a_missing_line():
    example = Example(ROOT / "README.md", 1, "quotactl x", shown=[(2, "a ... c"), (3, "..."), (4, "d")])
    assert unmatched_lines(example, ["a b c", "d"]) == []
    assert "missing" in unmatched_lines(example, ["a b c", "e"])[0]
    assert "out of order" in unmatched_lines(example, ["d", "a b c"])[0]
