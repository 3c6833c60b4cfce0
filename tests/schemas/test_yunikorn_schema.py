"""The JSON Schema of the YuniKorn config (schemas/yunikorn/queues.json) agrees with the decoder and the cases."""

import json

import jsonschema
import pytest
from ruamel.yaml import YAML

from quotactl.load.yunikorn_yaml import STRUCTS
from tests.helpers import CASES, FIXTURES, ROOT

SCHEMA = json.loads((ROOT / "schemas" / "yunikorn" / "queues.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
LINT_CASES = CASES / "yunikorn-lint"


def _yaml(path):
    return YAML(typ="safe", pure=True).load(path.read_text())


def test_schema_is_valid():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_structs_match_the_decoder():
    defs = SCHEMA["$defs"]
    assert set(SCHEMA["properties"]) == set(STRUCTS["SchedulerConfig"])
    for name, fields in STRUCTS.items():
        if name == "SchedulerConfig":
            continue
        assert set(defs[name]["properties"]) == set(fields), name
        assert defs[name]["additionalProperties"] is False


def test_clean_fixture_validates():
    VALIDATOR.validate(_yaml(FIXTURES / "yunikorn" / "clean" / "queues.yaml"))


def _valid_cases():
    for case in sorted(LINT_CASES.glob("*/case.json")):
        spec = json.loads(case.read_text())
        if spec["expect"]["valid"] and (case.parent / "queues.yaml").exists():
            yield case.parent


@pytest.mark.parametrize("case", list(_valid_cases()), ids=lambda c: c.name)
def test_valid_cases_validate(case):
    doc = _yaml(case / "queues.yaml")
    if doc is None:
        return
    errors = list(VALIDATOR.iter_errors(doc))
    # The schema is stricter than YuniKorn's validator on purpose for the values of known properties
    # (YuniKorn accepts anything there and silently falls back: lint warnings YK2xx).
    assert all("properties" in e.absolute_path for e in errors), [e.message for e in errors]
    if not case.name.startswith("props-"):
        assert not errors


@pytest.mark.parametrize("snippet", [
    {"partitions": [{"name": "default", "queues": [{"name": "root", "maxApplications": 1}]}]},
    {"partitions": [{"name": "default"}]},
    {"partitions": [{"name": "default", "queues": [{"name": "root", "resources": {"max": {"memory": "1.5Gi"}}}]}]},
    {"partitions": [{"name": "default", "nodesortpolicy": "fair", "queues": []}]},
    {"partitions": [{"name": "default", "queues": [{"name": "a.b"}]}]},
    {"partitions": [{"name": "default", "queues": [{"name": "root", "properties": {"priority.offset": "abc"}}]}]},
])
def test_schema_rejects(snippet):
    assert list(VALIDATOR.iter_errors(snippet))
