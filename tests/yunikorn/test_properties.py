"""Queue properties: YuniKorn's lenient parsers, inheritance, and the effective tree (queue.go ``UpdateQueueProperties``, ``recalculatePriority``)."""

import textwrap

import pytest

from quotactl.load.yunikorn import load_text
from quotactl.yunikorn import properties as P
from quotactl.yunikorn.tree import build_tree


@pytest.mark.parametrize("text,value,error", [
    ("10", 10, None), ("+7", 7, None), ("-3", -3, None), ("2147483647", 2147483647, None),
    ("abc", 0, "invalid syntax"), ("1.5", 0, "invalid syntax"), (" 10", 0, "invalid syntax"),
    ("3000000000", 0, "value out of range"), ("-2147483649", 0, "value out of range"),
    ("1" * 5000, 0, "value out of range"), ("0" * 5000 + "5", 5, None),  # past Python's int() limit (fuzzer)
])
def test_priority_offset(text, value, error):
    parsed = P.parse_priority_offset(text)
    assert parsed.value == value
    assert (parsed.error is None) if error is None else (error in parsed.error)


@pytest.mark.parametrize("text,ns", [
    ("30s", 30 * P.SECOND), ("1m30s", 90 * P.SECOND), ("3600s", 3600 * P.SECOND), ("1.5h", 5400 * P.SECOND),
    ("500ms", 500_000_000), ("0", 0), ("-1s", -P.SECOND), ("2h45m", (2 * 3600 + 45 * 60) * P.SECOND), ("1µs", 1000),
])
def test_parse_duration(text, ns):
    assert P.parse_duration(text) == ns


@pytest.mark.parametrize("text,message", [
    ("30", 'time: missing unit in duration "30"'), ("1d", 'time: unknown unit "d" in duration "1d"'),
    ("", 'time: invalid duration ""'), ("xxxx", 'time: invalid duration "xxxx"'), ("1 m", 'time: unknown unit " m"'),
    ("1" * 5000 + "s", 'time: invalid duration "1111'),  # 5,000 digits: Go overflows, Python's int() refuses
])
def test_parse_duration_errors(text, message):
    with pytest.raises(ValueError) as exc:
        P.parse_duration(text)
    assert str(exc.value).startswith(message)


def test_duration_with_a_5000_digit_fraction():
    assert P.parse_duration("1." + "5" * 5000 + "s") == 1_555_555_555


def test_regexp_repeat_count_of_5000_digits_does_not_compile():
    from quotactl.yunikorn.validate import go_regexp_compiles

    assert not go_regexp_compiles("a{" + "9" * 5000 + "}") and go_regexp_compiles("a{3,10}")


def test_format_duration():
    assert [P.format_duration(x) for x in (0, 30 * P.SECOND, 90 * P.SECOND, 3600 * P.SECOND, 1_500_000_000, 500_000)] \
        == ["0s", "30s", "1m30s", "1h0m0s", "1.5s", "500µs"]


def test_policies():
    assert P.parse_preemption_policy("Disabled").value == "disabled"
    assert P.parse_preemption_policy("never").value == "default" and P.parse_preemption_policy("never").error
    assert P.parse_priority_policy("FENCE").value == "fence"
    assert P.parse_sort_policy("Fair").value == "fifo" and "case-sensitive" in P.parse_sort_policy("Fair").error
    assert P.parse_sort_policy("stateaware").value == "fifo"
    assert P.parse_sort_priority("false").value is True and P.parse_sort_priority("DISABLED").value is False
    assert P.parse_preemption_delay("0s").value == P.DEFAULT_PREEMPTION_DELAY
    assert P.parse_preemption_delay("-5s").error
    assert P.parse_quota_preemption_delay("0").value == 0 and P.parse_quota_preemption_delay("0").error is None
    assert P.parse_backoff("-1").value == 0 and P.parse_backoff("-1").error


def test_suggest():
    assert P.suggest("priority.ofset") == "priority.offset"
    assert P.suggest("preemption_policy") == "preemption.policy"
    assert P.suggest("first") is None


def tree(text: str):
    inp = load_text(textwrap.dedent(text))
    return build_tree(inp.config.partitions[0]).root


def find(view, path):
    return next(v for v in view.walk() if v.path == path)


def test_inheritance_example_from_the_spec():
    """Properties: root.a {preemption.policy: disabled, priority.offset: 10, application.sort.policy: fair},
    root.a.b {priority.policy: fence} -> b: fair, enabled, disabled, fence, offset 0."""
    root = tree("""\
        partitions:
          - name: default
            queues:
              - name: root
                queues:
                  - name: a
                    properties: {preemption.policy: disabled, priority.offset: "10", application.sort.policy: fair}
                    queues:
                      - name: b
                        properties: {priority.policy: fence}
        """)
    b = find(root, "root.a.b")
    values = {s.key: s.value for s in b.settings}
    assert values[P.SORT_POLICY] == "fair" and values[P.SORT_PRIORITY] == "enabled"
    assert values[P.PREEMPTION_POLICY] == "disabled" and values[P.PRIORITY_POLICY] == "fence"
    assert values[P.PRIORITY_OFFSET] == "0"
    assert b.setting(P.PREEMPTION_POLICY).source == "inherited" and b.setting(P.PREEMPTION_POLICY).origin == "root.a"
    assert b.setting(P.PRIORITY_OFFSET).source == "reset"
    assert b.effective_properties[P.PRIORITY_OFFSET] == "0"
    assert b.preemption_disabled and b.priority_fence and b.leaf


def test_fence_preemption_is_not_inherited_and_priority_seen_by_root():
    """Priority fences: tenant fence offset 10; q2 offset 5 -> root sees tenant's queues as 10."""
    root = tree("""\
        partitions:
          - name: default
            queues:
              - name: root
                queues:
                  - name: tenant
                    properties: {priority.policy: fence, priority.offset: "10", preemption.policy: fence}
                    queues:
                      - name: q1
                      - name: q2
                        properties: {priority.offset: "5"}
                  - name: system
                    properties: {priority.offset: "-2"}
                    queues:
                      - name: deep
                        properties: {priority.offset: "3"}
        """)
    assert find(root, "root.tenant.q1").priority_at_root == "10 (fenced at root.tenant)"
    assert find(root, "root.tenant.q2").priority_at_root == "10 (fenced at root.tenant)"
    assert find(root, "root.tenant").preemption_fence and not find(root, "root.tenant.q1").preemption_fence
    assert find(root, "root.system.deep").priority_at_root == "p+1"
    assert find(root, "root.system").priority_at_root == "p-2"
    assert root.preemption_fence  # root always bounds the search


def test_effective_max_and_zero_maps():
    root = tree("""\
        partitions:
          - name: default
            queues:
              - name: root
                queues:
                  - name: a
                    resources: {max: {vcore: 8, memory: 0}}
                    queues:
                      - name: b
                        resources: {max: {vcore: 16, nvidia.com/gpu: 2}}
                  - name: z
                    resources: {max: {vcore: 0}, guaranteed: {memory: 0}}
        """)
    b = find(root, "root.a.b")
    assert b.effective_max == {"vcore": 8000, "memory": 0, "nvidia.com/gpu": 2}
    z = find(root, "root.z")
    assert z.applied_max is None and z.applied_guaranteed is None and z.max == {"vcore": 0}


def test_leaf_only_and_templates():
    root = tree("""\
        partitions:
          - name: default
            queues:
              - name: root
                queues:
                  - name: p
                    parent: true
                    properties: {application.sort.policy: fair}
                    childtemplate: {maxapplications: 5}
                    queues:
                      - name: inner
                        parent: true
        """)
    p = find(root, "root.p")
    assert p.setting(P.SORT_POLICY).value == "fair" and p.setting(P.SORT_POLICY).source == "fixed"
    assert p.child_template is not None and find(root, "root.p.inner").template_from == "root.p"
