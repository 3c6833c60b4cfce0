"""Kubernetes name validation (k8s.io/apimachinery/pkg/util/validation), with its messages."""

from __future__ import annotations

import re

DNS1123_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS1123_SUBDOMAIN = DNS1123_LABEL + r"(\." + DNS1123_LABEL + r")*"
QUALIFIED_NAME_PART = r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
LABEL_VALUE = r"(" + QUALIFIED_NAME_PART + r")?"

_LABEL_RE = re.compile(f"^{DNS1123_LABEL}$")
_SUBDOMAIN_RE = re.compile(f"^{DNS1123_SUBDOMAIN}$")
_NAME_PART_RE = re.compile(f"^{QUALIFIED_NAME_PART}$")
_LABEL_VALUE_RE = re.compile(f"^{LABEL_VALUE}$")

NAME_PART_MSG = (
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
)
LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
    "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)
SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
LABEL_MSG = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
    "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)


def is_dns1123_label(value: str) -> bool:
    return isinstance(value, str) and len(value) <= 63 and bool(_LABEL_RE.match(value))


def is_dns1123_subdomain(value: str) -> bool:
    return isinstance(value, str) and len(value) <= 253 and bool(_SUBDOMAIN_RE.match(value))


def dns1123_subdomain_errors(value: str) -> list[str]:
    errs = []
    if len(value) > 253:
        errs.append("must be no more than 253 characters")
    if not _SUBDOMAIN_RE.match(value):
        errs.append(SUBDOMAIN_MSG)
    return errs


def dns1123_label_errors(value: str) -> list[str]:
    errs = []
    if len(value) > 63:
        errs.append("must be no more than 63 characters")
    if not _LABEL_RE.match(value):
        errs.append(LABEL_MSG)
    return errs


def qualified_name_errors(value: str) -> list[str]:
    """IsQualifiedName: ``[prefix/]name``; also the rule for label keys and Kueue resource names."""
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            errs.extend("prefix part " + e for e in dns1123_subdomain_errors(prefix))
    else:
        return [
            "a qualified name " + NAME_PART_MSG.replace("name part must", "must")
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if not name:
        errs.append("name part must be non-empty")
    elif len(name) > 63:
        errs.append("name part must be no more than 63 characters")
    if name and not _NAME_PART_RE.match(name):
        errs.append(NAME_PART_MSG)
    return errs


def is_label_value(value: str) -> bool:
    return isinstance(value, str) and len(value) <= 63 and bool(_LABEL_VALUE_RE.match(value))


def label_value_errors(value: str) -> list[str]:
    errs = []
    if len(value) > 63:
        errs.append("must be no more than 63 characters")
    if not _LABEL_VALUE_RE.match(value):
        errs.append(LABEL_VALUE_MSG)
    return errs
