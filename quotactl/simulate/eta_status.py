"""The statuses of an ETA (``simulate.eta.Eta.status``), apart from the engine so that the
report modules, imported to list the output formats, do not import the simulator."""

ADMITTED = "admitted"  # the simulation admitted it: ``start`` is the estimate
RUNNING = "running"  # the snapshot already admitted it
NEVER = "never"  # the simulation ran out of events with it still pending
UNKNOWN = "unknown"  # the simulation stopped first (a livelock, the cycle limit, --until)
