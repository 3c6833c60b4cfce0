"""apiVersions against the target Kueue release (--kueue-version): KQ010 for a version that
release does not serve yet, KQ013 per object for one it no longer serves (v1beta1 from v0.20,
kubernetes-sigs/kueue#14558), KQ012 once per file for one it serves but marks deprecated."""

from __future__ import annotations

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.load.objects import KubeObject
from quotactl.model.kueue_versions import api_version_state, served_versions

KUEUE_GROUPS = ("kueue.x-k8s.io", "config.kueue.x-k8s.io")


def version_notes(objects: list[KubeObject], release: str) -> list[Diagnostic]:
    """The apiVersion findings of every Kueue object at Kueue ``release``."""
    out: list[Diagnostic] = []
    deprecated: dict[str, list[KubeObject]] = {}
    for obj in objects:
        if obj.group not in KUEUE_GROUPS or obj.version == "v1alpha1":  # v1alpha1 Cohort: KQ011
            continue
        state = api_version_state(release, obj.group, obj.version)
        if state == "future":
            out.append(_not_served_yet(obj, release))
        elif state == "unserved":
            out.append(_no_longer_served(obj, release))
        elif state == "deprecated":
            deprecated.setdefault(obj.ref.file, []).append(obj)
    out.extend(_deprecated_in_file(objs) for objs in deprecated.values())
    return out


def _at_api_version(obj: KubeObject) -> tuple[int, int]:
    pos = obj.ref.pos(("apiVersion",))
    return pos.line, pos.column


def _not_served_yet(obj: KubeObject, release: str) -> Diagnostic:
    line, column = _at_api_version(obj)
    served = ", ".join(f"{obj.group}/{v}" for v in served_versions(release, obj.group))
    return Diagnostic("KQ010", Severity.ERROR, f"{obj.api_version} is not served by Kueue {release} "
                      f"(served: {served})", obj.ref.file, line, column, object=obj.display,
                      field="apiVersion", type="Invalid",
                      hint=f"write {obj.group}/{served_versions(release, obj.group)[-1]}, or check against the "
                           "Kueue you run with --kueue-version")


def _no_longer_served(obj: KubeObject, release: str) -> Diagnostic:
    line, column = _at_api_version(obj)
    return Diagnostic("KQ013", Severity.WARNING, f"{obj.api_version} is not served by Kueue {release}: the API "
                      f"server refuses {obj.display} after the upgrade", obj.ref.file, line, column,
                      object=obj.display, field="apiVersion",
                      hint=f"quotactl convert --to v1beta2 {obj.ref.file}")


def _deprecated_in_file(objs: list[KubeObject]) -> Diagnostic:
    """One info per file (not one per object): the version still works, the file is what to change."""
    first = objs[0]
    line, column = _at_api_version(first)
    n = len(objs)
    return Diagnostic("KQ012", Severity.INFO, f"{n} object{'s' if n > 1 else ''} in this file use"
                      f"{'' if n > 1 else 's'} the deprecated {first.api_version} (first: {first.display}); "
                      "Kueue converts it, but v1beta2 is the storage version", first.ref.file, line, column,
                      object=first.display, field="apiVersion",
                      hint=f"quotactl convert --to v1beta2 {first.ref.file}")
