"""``python -m tests.fuzz --seed S --inputs N [--jobs J]``: a fuzz campaign by hand (see tools/fuzz.py)."""

from tests.fuzz.cli import main

raise SystemExit(main())
