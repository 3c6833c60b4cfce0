"""Building a big model or running a big simulation allocates many objects and keeps most of
them, and creates next to no cyclic garbage; Python's cyclic collector would scan the growing
heap again and again (on Kueue's 50,000-workload generator config, more time than building the
model itself).  ``fewer_gc_pauses`` turns it off for such a stretch."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def fewer_gc_pauses() -> Iterator[None]:
    """The cyclic collector off while the block runs, then back as it was; reference counting
    still frees everything at once.  Nested uses cost nothing (the inner one sees it off)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            # Not gc.freeze()/unfreeze() to age what was allocated: get_freeze_count() walks the
            # whole frozen list, and a process that froze its heap (a fork server) paid that on
            # every model built. The first young collection walks the block's objects once.
            gc.enable()


ONE_SHOT = {"process": False}  # set by the console entry point (cli.app.main): the process ends after one command


def one_shot_collector_off() -> None:
    """In a one-shot process (the console command, not a test or library caller), the collector
    off until the process exits: a big run keeps nearly everything it allocates to the end, and
    the first collection after ``fewer_gc_pauses`` would walk the whole heap (about a second on
    Kueue's 50,000-workload generator config) only to free nothing.  The exit runs no collection
    while it is off."""
    if ONE_SHOT["process"]:
        gc.disable()


def keep_for_the_run() -> None:
    """In a one-shot process, what was allocated so far (a loaded snapshot: millions of dicts
    and strings, all kept to the end) is set aside from the collector (``gc.freeze``, a constant-
    time list splice), so no later collection walks it again; cyclic garbage made afterwards is
    still collected.  A no-op elsewhere (tests, library callers)."""
    if ONE_SHOT["process"]:
        gc.freeze()
