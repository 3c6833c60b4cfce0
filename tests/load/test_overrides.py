"""load.overrides: the same object given twice, the later one wins (kubectl apply order)."""

from __future__ import annotations

from quotactl.load.objects import load
from quotactl.load.overrides import latest, object_key
from quotactl.load.sources import Source


def objects_of(tmp_path, *texts: str, cluster: str | None = None):
    paths = []
    for i, text in enumerate(texts):
        path = tmp_path / f"{i}.yaml"
        path.write_text(text)
        paths.append(str(path))
    return load(paths, texts=(Source("cluster:x", cluster),) if cluster else ()).objects


def cq(name: str, version: str = "v1beta2", cohort: str = "") -> str:
    return f"apiVersion: kueue.x-k8s.io/{version}\nkind: ClusterQueue\nmetadata: {{name: {name}}}\nspec: {{{cohort}}}\n"


def lq(name: str, namespace: str | None) -> str:
    ns = f", namespace: {namespace}" if namespace else ""
    return f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {{name: {name}{ns}}}\nspec: {{}}\n"


def test_identity_is_group_kind_namespace_and_name_not_version(tmp_path):
    a, b, c, d = objects_of(tmp_path, cq("a", "v1beta1"), cq("a"), lq("q", None), lq("q", "default"))
    assert object_key(a) == object_key(b) == ("kueue.x-k8s.io", "ClusterQueue", None, "a")
    assert object_key(c) == object_key(d) == ("kueue.x-k8s.io", "LocalQueue", "default", "q")  # kubectl's default


def test_namespaces_and_kinds_tell_objects_apart(tmp_path):
    objects = objects_of(tmp_path, lq("q", "a"), lq("q", "b"), cq("q"))
    assert latest(objects) == (objects, [])


def test_the_later_object_replaces_the_earlier_in_its_place(tmp_path):
    objects = objects_of(tmp_path, cq("a") + "---\n" + cq("b"), cq("a", cohort="cohortName: x"))
    kept, overrides = latest(objects)
    assert [(o.name, o.ref.file.endswith("1.yaml")) for o in kept] == [("a", True), ("b", False)]
    [o] = overrides
    assert (o.kept, o.replaced) == (objects[2], objects[0])
    assert o.warning() == (f"{tmp_path}/1.yaml:1: warning: ClusterQueue/a is also at {tmp_path}/0.yaml:1; "
                           "this later one is used (as after kubectl apply -f ... -f ...)")


def test_three_copies_keep_the_last_and_name_each_replacement(tmp_path):
    objects = objects_of(tmp_path, "---\n".join([cq("a"), cq("a", cohort="cohortName: x"),
                                                 cq("a", cohort="cohortName: y")]))
    kept, overrides = latest(objects)
    assert kept == [objects[2]]
    assert [(o.kept.ref.pos().line, o.replaced.ref.pos().line) for o in overrides] == [(6, 1), (11, 6)]


def test_a_schedulers_configuration_file_is_one_object_whatever_its_name(tmp_path):
    config = "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n"
    objects = objects_of(tmp_path, config, config + "metadata: {name: other}\n",
                         "partitions: [{name: default}]\n", "partitions: [{name: other}]\n")
    kept, overrides = latest(objects)
    assert kept == [objects[1], objects[3]]
    assert overrides[1].warning().endswith("warning: SchedulerConfig is also at "
                                           f"{tmp_path}/2.yaml:1; this later one is used "
                                           "(as after kubectl apply -f ... -f ...)")


def test_unnamed_objects_have_no_identity(tmp_path):
    unnamed = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {}\n"
    objects = objects_of(tmp_path, unnamed, unnamed)
    assert object_key(objects[0]) is None and latest(objects) == (objects, [])


def test_files_replace_the_cluster_read_before_them(tmp_path):
    cluster = ('{"apiVersion": "v1", "kind": "List", "items": ['
               '{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": "a"}},'
               '{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": "b"}},'
               '{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue", "metadata": {"name": "a", "namespace": "n"}}]}')
    kept, _ = latest(objects_of(tmp_path, cq("a", "v1beta1"), cluster=cluster))
    assert [(o.ref.file, o.kind, o.name) for o in kept] == [
        (f"{tmp_path}/0.yaml", "ClusterQueue", "a"), ("cluster:x", "ClusterQueue", "b"), ("cluster:x", "LocalQueue", "a")]
