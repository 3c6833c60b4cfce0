"""``quotactl snapshot`` output: the objects read from a cluster as one ``kind: List``, written by
live/snapshot.py (sorted keys: the same cluster gives the same bytes)."""

from __future__ import annotations

from quotactl.report.renderers import register

# Its own YAML (sorted keys, long strings on one line), registered before the JSON renderer so that
# no generic YAML twin is made from it.
register("snapshot", "yaml", lambda snap, view: snap.render("yaml"), note="sorted keys, to replay with -f")
register("snapshot", "json", lambda snap, view: snap.render("json"))
