"""A List's items (``load/objects.py``): those whose apiVersion and kind decide their dialect are
taken without the general walk; every item gets the dialect ``classify`` gives it."""

from __future__ import annotations

import json

from quotactl.load.objects import classify, load


def _items():
    return [
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "plain"}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "queued", "labels": {"kueue.x-k8s.io/queue-name": "q"}}},
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}},
        {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": "cq"}},
        {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"}},
        {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}},
        {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w2", "labels": {
            "kueue.x-k8s.io/queue-name": "q"}}},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "yunikorn-configs"}, "data": {}},
        {"apiVersion": "", "kind": "Pod"},
        "not an object",
    ]


def test_every_item_gets_the_dialect_classify_gives(tmp_path):
    path = tmp_path / "list.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": _items()}))
    loaded = load([str(path)])
    got = {(o.kind, o.data["metadata"]["name"]): o.dialect for o in loaded.objects}
    want = {(i["kind"], i["metadata"]["name"]): classify(i["apiVersion"], i["kind"], i) for i in _items()[:8]
            if classify(i["apiVersion"], i["kind"], i) is not None}
    assert got == want
    assert [o.ref.base for o in loaded.objects] == [("items", i) for i in (0, 1, 2, 3, 4, 6, 7)]
    codes = sorted(d.code for d in loaded.diagnostics)
    assert codes == ["IN003", "IN009", "IN009"]  # the unknown Widget, the empty apiVersion, the string
