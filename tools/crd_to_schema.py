"""Turn one version of a Kueue CustomResourceDefinition into a quotactl JSON Schema (the
conventions of ``quotactl/lint/schema.py``): closed objects, Kubernetes formats, list-map and
set keywords; CEL rules are left to lint rules.

Usage: python tools/crd_to_schema.py CRD.yaml VERSION > schemas/kueue/VERSION/KIND.json
(the CRDs are Kueue's ``config/components/crd/bases/kueue.x-k8s.io_*.yaml``).
"""

from __future__ import annotations

import json
import re
import sys

from ruamel.yaml import YAML

KEEP = ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "maxProperties", "enum", "default")
K8S = "../../kubernetes/defs.json#/$defs/"


def first_sentence(text: str | None) -> str | None:
    if not text:
        return None
    text = " ".join(text.split())
    end = re.search(r"\.(\s|$)", text)
    return text[: end.start() + 1] if end else text


def convert(node: dict, path: tuple = ()) -> dict:
    out: dict = {}
    desc = first_sentence(node.get("description"))
    if desc and path:
        out["description"] = desc
    if path and path[-1] == "metadata" and len(path) == 1:
        return {"$ref": K8S + "objectMeta"}
    if path == ("status", "conditions"):
        return {"$ref": "../defs.json#/$defs/conditions"}
    if node.get("x-kubernetes-int-or-string") and "pattern" in node:
        out["$ref"] = K8S + "quantity"
        return out
    kind = node.get("type")
    if kind:
        out["type"] = kind
    fmt = node.get("format")
    if fmt in ("int32", "int64"):
        out["format"] = fmt
    elif fmt == "date-time":
        out["format"] = "k8s-time"
    if "pattern" in node:
        # Python's re wants inline flags first; Go's (?i) after ^ is the same class in both cases.
        out["pattern"] = node["pattern"].replace("^(?i)[a-z]([-a-z0-9]*[a-z0-9])?$",
                                                 "^[A-Za-z]([-A-Za-z0-9]*[A-Za-z0-9])?$")
    for key in KEEP:
        if key in node:
            out[key] = node[key]
    if node.get("x-kubernetes-list-type") == "set":
        out["x-kubernetes-list-type"] = "set"
    if node.get("x-kubernetes-list-type") == "map":
        out["x-kubernetes-list-map-keys"] = list(node["x-kubernetes-list-map-keys"])
    if "items" in node:
        out["items"] = convert(node["items"], path + ("[]",))
    if "properties" in node:
        props = node["properties"]
        out["properties"] = {k: convert(v, path + (k,)) for k, v in props.items()}
        if node.get("required"):
            out["required"] = list(node["required"])
        if path != ("status",) and not node.get("x-kubernetes-preserve-unknown-fields"):
            out["additionalProperties"] = False
    elif isinstance(node.get("additionalProperties"), dict):
        out["additionalProperties"] = convert(node["additionalProperties"], path + ("*",))
    return out


def schema_for(crd: dict, version: str) -> dict:
    names = crd["spec"]["names"]
    group = crd["spec"]["group"]
    ver = next(v for v in crd["spec"]["versions"] if v["name"] == version)
    root = ver["schema"]["openAPIV3Schema"]
    kind = names["kind"]
    body = convert(root)
    body["properties"]["apiVersion"] = {"const": f"{group}/{version}"}
    body["properties"]["kind"] = {"const": kind}
    body["required"] = ["apiVersion", "kind", "metadata"] + [r for r in root.get("required", []) if r != "metadata"]
    if "status" in body["properties"]:
        body["properties"]["status"]["description"] = "Written by Kueue; unknown fields are accepted."
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://quotactl.dev/schemas/kueue/{version}/{kind.lower()}.json",
        "title": f"{group}/{version} {kind}",
        "description": f"{first_sentence(root.get('description')) or kind} (Kueue "
                       f"config/components/crd/bases/{group}_{names['plural']}.yaml, version {version})",
        **{k: v for k, v in body.items() if k != "description"},
    }


def main(argv: list[str]) -> None:
    crd = YAML(typ="safe").load(open(argv[1], encoding="utf-8"))
    json.dump(schema_for(crd, argv[2]), sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
