"""Decoding as YuniKorn does (yaml.v3, strict): resolution, error texts, lines (config.go ``ParseAndValidateConfig``)."""

import math
import textwrap

import pytest

from quotactl.load.yunikorn import load_text
from quotactl.load.yunikorn_yaml import BOOL, FLOAT, INT, NULL, STR, TIMESTAMP, go_resolve


@pytest.mark.parametrize("text,tag,value", [
    ("10", INT, 10), ("0x10", INT, 16), ("0o17", INT, 15), ("017", INT, 15), ("0b101", INT, 5), ("1_000", INT, 1000),
    ("+5", INT, 5), ("-3", INT, -3), ("09", FLOAT, 9.0), ("1.5", FLOAT, 1.5), ("1e3", FLOAT, 1000.0), (".5", FLOAT, 0.5),
    ("yes", STR, "yes"), ("on", STR, "on"), ("true", BOOL, True), ("False", BOOL, False), ("~", NULL, None),
    ("", NULL, None), ("null", NULL, None), ("2001-12-14", TIMESTAMP, "2001-12-14"), ("18446744073709551615", INT, 2**64 - 1),
    ("99999999999999999999", FLOAT, 1e20), ("1Gi", STR, "1Gi"), ("fair", STR, "fair"),
])
def test_go_resolve(text, tag, value):
    got_tag, got = go_resolve(text)
    assert got_tag == tag
    assert got == value


def test_go_resolve_special_floats():
    assert math.isinf(go_resolve(".inf")[1]) and math.isnan(go_resolve(".NaN")[1])


def decode(text: str):
    return load_text(textwrap.dedent(text))


def messages(inp):
    return [e.message for e in inp.decode_errors]


def test_unknown_field_and_case():
    inp = decode("""\
        partitions:
          - name: default
            queues:
              - name: root
                maxApplications: 5
                sample: x
        """)
    assert messages(inp) == ["line 5: field maxApplications not found in type configs.QueueConfig",
                             "line 6: field sample not found in type configs.QueueConfig"]
    assert inp.decode_errors[0].path == ("partitions", 0, "queues", 0, "maxApplications")


def test_unknown_field_types():
    inp = decode("""\
        partitions:
          - name: default
            preemption: {enabled: true, delay: 5}
            nodesortpolicy: {type: fair, weights: {}}
            usergroupresolver: {type: os, ldap: x}
            placementrules:
              - name: fixed
                filter: {type: allow, user: [a]}
                parent: {name: tag, values: x}
            queues:
              - name: root
                resources: {min: {vcore: 1}}
                childtemplate: {limits: []}
                limits:
                  - {users: [a], maxapps: 1}
        top: 1
        """)
    types = {m.rsplit(" ", 1)[-1] for m in messages(inp)}
    assert types == {"configs.PartitionPreemptionConfig", "configs.NodeSortingPolicy", "configs.UserGroupResolver",
                     "configs.Filter", "configs.PlacementRule", "configs.Resources", "configs.ChildTemplate",
                     "configs.Limit", "configs.SchedulerConfig"}


@pytest.mark.parametrize("snippet,message", [
    ("parent: maybe", "cannot unmarshal !!str `maybe` into bool"),
    ("parent: \"true\"", "cannot unmarshal !!str `true` into bool"),
    ("maxapplications: \"5\"", "cannot unmarshal !!str `5` into uint64"),
    ("maxapplications: -1", "cannot unmarshal !!int `-1` into uint64"),
    ("maxapplications: [1]", "cannot unmarshal !!seq into uint64"),
    ("properties: [a]", "cannot unmarshal !!seq into map[string]string"),
    ("properties: {a: {b: c}}", "cannot unmarshal !!map into string"),
    ("queues: {name: x}", "cannot unmarshal !!map into []configs.QueueConfig"),
    ("parent: abcdefghijklmnop", "cannot unmarshal !!str `abcdefg...` into bool"),
])
def test_type_errors(snippet, message):
    inp = decode(f"""\
        partitions:
          - name: default
            queues:
              - name: root
                {snippet}
        """)
    assert messages(inp) == [f"line 5: {message}"]


def test_lenient_scalars():
    inp = decode("""\
        partitions:
          - name: default
            preemption: {enabled: off, quotapreemptionenabled: Yes}
            nodesortpolicy: {type: fair, resourceweights: {vcore: 2, memory: 1.5}}
            queues:
              - name: root
                parent: on
                maxapplications: 1.9
                properties: {priority.offset: 10, a: ~, b: 1.50, c: true}
                resources:
                  max: {memory: , vcore: 0x10}
                limits:
                  - users: [~, alice, 7]
                    maxapplications: 3
        """)
    assert messages(inp) == []
    p = inp.config.partitions[0]
    assert p.preemption.enabled is False and p.preemption.quotapreemptionenabled is True
    assert p.nodesortpolicy.resourceweights == {"vcore": 2.0, "memory": 1.5}
    root = p.queues[0]
    assert root.parent is True and root.maxapplications == 1  # a float into uint64 truncates in yaml.v3
    assert root.properties == {"priority.offset": "10", "a": "", "b": "1.50", "c": "true"}
    assert root.resources.max == {"memory": "", "vcore": "0x10"}  # strings verbatim: both invalid quantities
    assert root.limits[0].users == ("alice", "7")  # a null item is dropped


def test_resourceweights_quoted_is_a_type_error():
    inp = decode("""\
        partitions:
          - name: default
            nodesortpolicy: {type: fair, resourceweights: {vcore: "1.0"}}
            queues: [{name: root}]
        """)
    assert messages(inp) == ["line 3: cannot unmarshal !!str `1.0` into float64"]


def test_duplicate_keys():
    inp = decode("""\
        partitions:
          - name: default
            queues:
              - name: root
                name: ROOT
        """)
    assert messages(inp) == ['line 5: mapping key "name" already defined at line 4']


def test_merge_keys_and_anchors():
    inp = decode("""\
        partitions:
          - name: default
            queues:
              - name: root
                queues:
                  - &base
                    name: a
                    resources: {max: {vcore: 4}}
                  - <<: *base
                    name: b
        """)
    assert messages(inp) == []
    a, b = inp.config.partitions[0].queues[0].queues
    assert (a.name, b.name) == ("a", "b") and b.resources.max == {"vcore": "4"}


def test_null_and_missing():
    inp = decode("""\
        partitions:
          - name:
            queues:
            placementrules:
        """)
    p = inp.config.partitions[0]
    assert p.queues is None and p.placementrules is None and p.normalized_name == "default"
    assert messages(inp) == []


def test_empty_document_and_syntax_error():
    assert load_text("").config.partitions == ()
    assert load_text("# only a comment\n").config.partitions == ()
    bad = load_text("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: *\n")
    assert [n.kind for n in bad.notes] == ["syntax"]
    assert bad.notes[0].line == 5
