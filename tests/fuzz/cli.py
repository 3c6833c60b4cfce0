"""The command line of a fuzz campaign."""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> int:
    from tests.fuzz.campaign import campaign, closing_line

    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--seed", type=int, required=True, help="the campaign's seed")
    parser.add_argument("--inputs", type=int, default=1000, help="how many inputs to generate")
    parser.add_argument("--start", type=int, default=0, help="the first input's index (to resume)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--max-seconds", type=float, help="start no input after this much wall time")
    parser.add_argument("--no-save", action="store_true", help="do not write regression inputs")
    parser.add_argument("--quiet", action="store_true", help="print the closing line only")
    ns = parser.parse_args(argv)
    tally = campaign(ns.seed, ns.inputs, ns.start, ns.jobs, save=not ns.no_save, quiet=ns.quiet,
                     max_seconds=ns.max_seconds)
    print(closing_line(ns.seed, tally), flush=True)
    return 1 if tally.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
