"""A bounded slice of the fuzzer in CI: a fixed seed's first inputs, three commands each, no failure.
(The long run is by hand: tools/fuzz.py.)"""

from __future__ import annotations

from tests.fuzz.campaign import RUNS_PER_INPUT, campaign
from tests.fuzz.mutate import input_rng, make_input

SEED = 16
INPUTS = 250  # about 50 s of CPU on a 2-core machine


def test_a_slice_of_the_fuzzer_finds_nothing():
    tally = campaign(SEED, INPUTS, save=False, quiet=True)
    assert tally.inputs == INPUTS and tally.runs >= INPUTS * RUNS_PER_INPUT and tally.fuzzer_errors == 0
    failures = [f"{f.kind} input {f.index} {' '.join(f.run.args)} [{'; '.join(f.inp.mutations)}] "
                f"from {f.inp.origin}: {f.detail}" for f in tally.found.values() if f is not None]
    assert tally.failures == 0, "\n".join(failures)


def test_inputs_depend_on_seed_and_index_only():
    first = [make_input(input_rng(SEED, i), i).data for i in (0, 7, 41)]
    again = [make_input(input_rng(SEED, i), i).data for i in (41, 7, 0)][::-1]
    assert first == again
    assert make_input(input_rng(SEED + 1, 7), 7).data != first[1]
