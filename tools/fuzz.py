#!/usr/bin/env python3
"""Run a fuzz campaign by hand: ``nice -n 10 .venv/bin/python tools/fuzz.py --seed 7 --inputs 10000 --jobs 2``.

Each failing input is minimised and kept under tests/fuzz/regressions/; the last line is the
campaign's summary (inputs, runs, failures).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzz.cli import main  # noqa: E402

raise SystemExit(main())
