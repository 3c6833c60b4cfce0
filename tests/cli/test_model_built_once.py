"""Every command builds the Kueue model once: no input object is turned into a model twice in one
run. Job derivation reads the model the command builds anyway (before, ``lint`` of an input with
jobs built every object four times, and the engine commands twice).

The count is taken at ``model.kueue.build``, the one function every path builds an object with.
"""

from __future__ import annotations

from collections import Counter

import pytest

import quotactl.model.kueue as kueue_model
from tests.helpers import FIXTURES, run_cli

SNAPSHOT = str(FIXTURES / "jobs" / "snapshot.yaml")
JOB = str(FIXTURES / "jobs" / "my-job.yaml")
WHAT_IF = FIXTURES / "simulate" / "what-if"
AFTER, AT_NOON = str(WHAT_IF / "after.yaml"), str(WHAT_IF / "snapshot.yaml")
GENERATOR = str(FIXTURES / "simulate" / "kueue-baseline" / "generator.yaml")

COMMANDS = {
    "lint with jobs": ["lint", SNAPSHOT, JOB],
    "explain a job": ["explain", "job/ml/train-42", "-f", SNAPSHOT],
    "explain submitted jobs": ["explain", "-f", SNAPSHOT, "-f", JOB],
    "explain --all": ["explain", "--all", "-f", SNAPSHOT, "-f", JOB],
    "explain --eta": ["explain", "team-b/finetune-x", "--eta", "-f", AFTER, "-f", AT_NOON],
    "explain --all --eta": ["explain", "--all", "--eta", "-f", AFTER, "-f", AT_NOON],
    "preempt a job": ["preempt", "job/ml/train-42", "-f", SNAPSHOT],
    "schedule with jobs": ["schedule", "-f", SNAPSHOT, "-f", JOB],
    "shares": ["shares", "-f", SNAPSHOT, "-f", JOB],
    "diff": ["diff", "--base", SNAPSHOT, "--head", SNAPSHOT, "--head", JOB],
    "simulate": ["simulate", "-f", AFTER, "-f", AT_NOON, "--jobs", "1"],
    "simulate a generator over a snapshot": ["simulate", "-f", AFTER, "--generator", GENERATOR, "--until", "1m",
                                             "--jobs", "1"],
    "workload": ["workload", "-f", JOB, "-f", SNAPSHOT, "-o", "table"],
}


@pytest.fixture
def builds(monkeypatch) -> Counter:
    """How many times each object (by identity) was built into a model."""
    counts: Counter = Counter()
    build = kueue_model.build

    def counting(obj, shared=None):
        counts[id(obj)] += 1
        return build(obj, shared)

    monkeypatch.setattr(kueue_model, "build", counting)
    return counts


@pytest.mark.parametrize("argv", COMMANDS.values(), ids=COMMANDS.keys())
def test_each_object_is_built_once(builds, argv):
    result = run_cli(*argv, *([] if "-o" in argv else ["-o", "json"]))
    assert result.exit_code in (0, 1), result.stderr
    assert builds, "the command built no model: the count would prove nothing"
    assert max(builds.values()) == 1, sorted(builds.values())[-5:]
