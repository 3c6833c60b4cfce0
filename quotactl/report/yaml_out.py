"""``-o yaml``: a command's JSON document as YAML, as kubectl prints ``-o yaml`` beside ``-o json``.

One generic renderer: ``renderers.register`` gives every command that has a JSON renderer a YAML
one made from it, so the YAML holds the same keys in the same order and the JSON schemas of
``schemas/output/`` describe it too."""

from __future__ import annotations

import io
import json
from collections.abc import Callable


def yaml_text(document: object) -> str:
    """``document`` (JSON types only) as block YAML, keys in their order."""
    from ruamel.yaml import YAML  # only a run that prints YAML pays for it

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.sort_base_mapping_type_on_output = False
    buf = io.StringIO()
    yaml.dump(document, buf)
    return buf.getvalue()


def as_yaml(json_renderer: Callable) -> Callable:
    """The YAML renderer of a command, from its JSON renderer."""
    def render(result, view) -> str:
        return yaml_text(json.loads(json_renderer(result, view)))

    return render
