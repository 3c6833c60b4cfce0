"""``quotactl simulate``: Kueue's scheduler driven by a clock in virtual time.

The scheduling decisions are ``kueue.scheduler``'s (the same ``Scheduler`` object ``schedule``
runs); this package only adds what a clock adds: arrivals (``scenario``), runtimes
(``runtimes``), the event queue (``events``), the cadence of cycles (``cadence``), and the
driver that applies events to the live engine state and runs cycles (``run``).  Results are
frozen dataclasses (``result``); times are integer microseconds from ``t0`` (``clock``).
"""
