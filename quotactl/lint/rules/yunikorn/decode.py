"""YK0xx: reading the config the way YuniKorn does (config.go ``ParseAndValidateConfig``): YAML syntax, yaml.v3 strict
decoding (unknown keys, wrong types, duplicate keys) and the ConfigMap form."""

from __future__ import annotations

import difflib

from quotactl.lint.rule import RuleDoc
from quotactl.lint.rules.yunikorn.base import YKContext, yk_rule
from quotactl.load.yunikorn import YuniKornInput
from quotactl.load.yunikorn_yaml import STRUCTS
from quotactl.model.yunikorn import object_for_path
from quotactl.yunikorn.issues import Issue

PREFIX = "yaml: unmarshal errors: "


def _notes(kind: str):
    def check(inp: YuniKornInput, ctx: YKContext):
        for note in inp.notes:
            if note.kind in (kind if isinstance(kind, tuple) else (kind,)):
                yield Issue(note.kind, note.message, "config", (), hint=note.hint, severity=note.severity,
                            file_pos=(note.file, note.line, note.column), type=None if note.kind != "syntax" else "Invalid")
    return check


def _decode(kind: str, hint):
    def check(inp: YuniKornInput, ctx: YKContext):
        for err in inp.decode_errors:
            if err.kind != kind:
                continue
            obj = object_for_path(inp.config, err.path[:-1] if kind != "type" else err.path)
            yield Issue(kind, PREFIX + err.message, obj, err.path, embedded=(err.line - 1, err.column),
                        hint=hint(err), order=(-1, 0, err.line))
    return check


def _unknown_hint(err) -> str:
    fields = list(STRUCTS.get(err.struct, {}))
    low = err.key.lower()
    exact = [f for f in fields if f == low.replace("_", "").replace("-", "")]
    close = exact or difflib.get_close_matches(low, fields, n=1, cutoff=0.8)
    known = ", ".join(fields)
    if close:
        return f"did you mean {close[0]!r}? YuniKorn's keys are lower-case without separators ({known})"
    if err.struct == "QueueConfig" and "." in err.key:
        return f"properties go under 'properties:'; the fields of a queue are {known}"
    return f"remove it; the fields of {err.struct} are {known}"


yk_rule(
    code="YK001", name="yaml-syntax", severity="error", layer="decode",
    summary="the queue document is not valid YAML",
    doc=RuleDoc(
        what="The queues.yaml text (on its own, or inside the ConfigMap) must parse as YAML. A syntax error fails "
             "before anything else, e.g. an unquoted `adminacl: *` (an alias without a name).",
        why="YuniKorn rejects the whole configuration (validate-conf and the admission webhook refuse it; a "
            "running scheduler keeps the old config).",
        fix="Fix the YAML at the reported line; quote values that start with *, &, !, %, @ or `.",
        bad="queues.yaml: |\n  partitions:\n    - name: default\n      queues:\n        - name: root\n          submitacl: *\n",
        good="queues.yaml: |\n  partitions:\n    - name: default\n      queues:\n        - name: root\n          submitacl: '*'\n",
        source=("yunikorn-core pkg/common/configs/config.go ParseAndValidateConfig (gopkg.in/yaml.v3 "
                "decoder)"),
    ),
    check=_notes("syntax"),
)

yk_rule(
    code="YK002", name="unknown-field", severity="error", layer="decode",
    summary="a key that is not a field of the YuniKorn config type (strict decoding)",
    doc=RuleDoc(
        what="YuniKorn decodes with yaml.v3 in strict mode (KnownFields): every key must be a field of the target "
             "struct. Keys are the Go field names lower-cased without separators and are case-sensitive "
             "(`maxapplications`, not `maxApplications`). Free-form maps (properties, guaranteed, max, "
             "maxresources, resourceweights) accept any key.",
        why="The whole config is rejected: `yaml: unmarshal errors: line <n>: field <key> not found in type "
            "configs.<Type>`.",
        fix="Remove the key or correct its spelling.",
        bad="queues:\n  - name: root\n    maxApplications: 10\n",
        good="queues:\n  - name: root\n    maxapplications: 10\n",
        source=("yunikorn-core pkg/common/configs/config.go ParseAndValidateConfig "
                "(decoder.KnownFields(true))"),
    ),
    check=_decode("unknown-field", _unknown_hint),
)

yk_rule(
    code="YK003", name="wrong-type", severity="error", layer="decode",
    summary="a value of the wrong YAML type for its field",
    doc=RuleDoc(
        what="Each field has a Go type: bool (`parent`, `create`, `enabled`: true/false or yes/no/on/off), uint64 "
             "(`maxapplications`: a plain non-negative number, not a quoted string), float64 (resource weights), "
             "string, list or mapping. `nodesortpolicy: fair` (a scalar where a mapping is expected) fails here.",
        why="The whole config is rejected: ``yaml: unmarshal errors: line <n>: cannot unmarshal !!str `bogus` into "
            "bool``.",
        fix="Write the value with the type the field expects.",
        bad="nodesortpolicy: fair\n",
        good="nodesortpolicy:\n  type: fair\n",
        source=("yunikorn-core pkg/common/configs/config.go ParseAndValidateConfig; gopkg.in/yaml.v3 "
                "decode.go"),
    ),
    check=_decode("type", lambda err: "write the value with the type the field expects (see `quotactl rules YK003`)"),
)

yk_rule(
    code="YK004", name="duplicate-key", severity="error", layer="decode",
    summary="the same key twice in one mapping",
    doc=RuleDoc(
        what="yaml.v3 refuses a mapping that repeats a key.",
        why="The whole config is rejected: `yaml: unmarshal errors: line <n>: mapping key \"x\" already defined at "
            "line <m>`.",
        fix="Keep one of the two entries.",
        bad="- name: a\n  name: b\n",
        good="- name: b\n",
        source=("gopkg.in/yaml.v3 decode.go (uniqueKeys), used by yunikorn-core "
                "pkg/common/configs/config.go ParseAndValidateConfig"),
    ),
    check=_decode("duplicate-key", lambda err: "remove one of the two entries"),
)

yk_rule(
    code="YK005", name="configmap-without-queues", severity="warning", layer="decode",
    summary="the YuniKorn ConfigMaps carry no queue document: the built-in default config is used",
    doc=RuleDoc(
        what="The shim reads the queue document from the key `<service.policyGroup>.yaml` (default `queues.yaml`) of "
             "the merged yunikorn-defaults / yunikorn-configs ConfigMaps.",
        why="Without it YuniKorn runs its built-in default: one partition, a `tag: namespace` placement rule that "
            "creates a queue per namespace, and root open to everyone. A misspelt key (`queue.yaml`) silently does "
            "this.",
        fix="Put the queue configuration under data[queues.yaml] (or the key of the configured policy group).",
        bad="data:\n  queue.yaml: |\n    partitions: ...\n",
        good="data:\n  queues.yaml: |\n    partitions: ...\n",
        source=("yunikorn-k8shim pkg/conf/schedulerconf.go FlattenConfigMaps (no queues.yaml key: the "
                "scheduler uses pkg/common/configs/config.go DefaultSchedulerConfig)"),
    ),
    check=_notes("missing-key"),
)

yk_rule(
    code="YK006", name="configmap-key-ignored", severity="info", layer="decode",
    summary="a ConfigMap key YuniKorn does not read (another policy group, or overridden)",
    doc=RuleDoc(
        what="Keys ending in `.yaml` other than the active `<policyGroup>.yaml` are ignored, and a key in "
             "yunikorn-configs overrides the same key in yunikorn-defaults.",
        why="Edits to an ignored key have no effect.",
        fix="Move the content to the active key, or set service.policyGroup.",
        source=("yunikorn-k8shim pkg/conf/schedulerconf.go FlattenConfigMaps (only <policyGroup>.yaml is "
                "read as the queue config)"),
    ),
    check=_notes("ignored-key"),
)

yk_rule(
    code="YK007", name="configmap-binarydata-unreadable", severity="warning", layer="decode",
    summary="a binaryData *.gz entry that is not gzipped base64",
    doc=RuleDoc(
        what="binaryData entries whose key ends in .gz are gunzipped and stored without the suffix.",
        why="An entry that cannot be decoded is not part of the configuration.",
        fix="Store `gzip | base64` of the text, or use data instead of binaryData.",
        source=("yunikorn-k8shim pkg/conf/schedulerconf.go FlattenConfigMaps (binaryData: only gzip entries "
                "whose key ends in .gz)"),
    ),
    check=_notes("binary-data"),
)

yk_rule(
    code="YK008", name="empty-config", severity="info", layer="decode",
    summary="the queue document is empty: YuniKorn uses its default config",
    doc=RuleDoc(
        what="An empty queues.yaml is accepted (zero partitions).",
        why="The scheduler then substitutes its built-in default configuration.",
        fix="Nothing, if the default is what you want; otherwise write the queue configuration.",
        source=("yunikorn-core pkg/common/configs/config.go LoadSchedulerConfigFromByteArray (an empty "
                "config validates; the scheduler then uses DefaultSchedulerConfig)"),
    ),
    check=_notes("empty"),
)

yk_rule(
    code="YK009", name="extra-documents", severity="warning", layer="decode",
    summary="the queue document holds more than one YAML document: only the first is read",
    doc=RuleDoc(
        what="YuniKorn decodes one YAML document from queues.yaml.",
        why="Everything after the first `---` is silently ignored.",
        fix="Merge the documents into one.",
        source=("yunikorn-core pkg/common/configs/config.go ParseAndValidateConfig (decoder.Decode reads "
                "one document)"),
    ),
    check=_notes("extra-documents"),
)

yk_rule(
    code="YK010", name="configmap-not-read-by-shim", severity="info", layer="decode",
    summary="a ConfigMap with a queue document that the shim does not read (wrong name)",
    doc=RuleDoc(
        what="The shim reads only the ConfigMaps yunikorn-configs and yunikorn-defaults in its namespace.",
        why="A queue configuration in a ConfigMap with another name is never applied.",
        fix="Name the ConfigMap yunikorn-configs.",
        source=("yunikorn-k8shim pkg/conf/schedulerconf.go FlattenConfigMaps (only the yunikorn-defaults "
                "and yunikorn-configs ConfigMaps are read)"),
    ),
    check=_notes("other-name"),
)

yk_rule(
    code="YK011", name="partition-fragment", severity="error", layer="decode",
    summary="a partition's queues or placement rules without 'partitions': not a queues.yaml",
    doc=RuleDoc(
        what="A document whose top level is a partition's parts (queues, placementrules, limits, nodesortpolicy, "
             "preemption, ...) with no `partitions` list. quotactl lints it as partition `default`.",
        why="YuniKorn decodes queues.yaml strictly into its SchedulerConfig, which has no such top-level keys: the "
            "whole config is rejected. Documentation often shows such a part on its own; with --no-cross-refs "
            "it is linted as one part of a partition written elsewhere (and a partition without queues is "
            "then not an error).",
        fix="Put the parts under `partitions: [{name: default, ...}]`, or lint with --no-cross-refs when the rest "
            "of the partition is elsewhere.",
        bad="placementrules:\n  - name: tag\n    value: namespace\n",
        good="partitions:\n  - name: default\n    placementrules:\n      - name: tag\n        value: namespace\n"
             "    queues:\n      - name: root\n",
        source=("yunikorn-core pkg/common/configs/config.go ParseAndValidateConfig (strict decoding into "
                "SchedulerConfig: only partitions and checksum are top-level keys)"),
    ),
    check=_notes("fragment"),
)
