"""Dynamic Resource Allocation: the devices of a ResourceClaimTemplate count against quota only
through the Configuration's ``resources.deviceClassMappings`` (kueue ``pkg/dra/claims.go``)."""

from __future__ import annotations

from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.crossref_helpers import engine_view, loc, objects_of
from quotactl.model.dra import class_to_resource, integration_enabled


@rule(
    code="KQ523", name="device-class-not-mapped", severity="warning", layer="runtime", scope="cluster",
    summary="A ResourceClaimTemplate requests devices of a class no deviceClassMappings entry maps",
    doc=RuleDoc(
        what="When the input has Kueue's Configuration: every device class an exact-count request of a "
             "ResourceClaimTemplate names must be in the deviceClassNames of a resources.deviceClassMappings "
             "entry (Kueue's DRA integration, gate KueueDRAIntegration, on since v0.18).",
        why="Kueue charges a claim's devices to the logical resource its class maps to. A Workload whose pod "
            "template uses a template with an unmapped class is never admitted: Kueue unsets its quota "
            "reservation with \"DeviceClass <class> is not mapped in DRA configuration for podset <podset>\" "
            "(DRAResourcesUnresolved). This is the upgrade trap of kueue#13969: claims that ran before DRA "
            "quota was turned on stop being admitted after the upgrade, and a mapping added later takes effect "
            "only once Kueue's manager restarts.",
        fix="Add the device class to a deviceClassMappings entry (and cover that resource in the ClusterQueues "
            "the Workloads use), then restart Kueue's manager.",
        bad="resources:\n  deviceClassMappings:\n  - name: example.com/gpu\n    deviceClassNames: [gpu.example.com]\n"
            "# ResourceClaimTemplate requests deviceClassName: fpga.example.com\n",
        good="resources:\n  deviceClassMappings:\n  - name: example.com/gpu\n    deviceClassNames: [gpu.example.com]\n"
             "  - name: example.com/fpga\n    deviceClassNames: [fpga.example.com]\n",
        source="kueue pkg/dra/claims.go GetResourceRequestsForResourceClaimTemplates; pkg/dra/mapper.go Lookup",
    ),
)
def check_unmapped_device_class(ctx):
    cfg = ctx.cluster.configuration
    options, _snapshot = engine_view(ctx)
    if cfg is None or not ctx.cluster.claim_templates or not integration_enabled(options.gates):
        return
    mapping = class_to_resource(cfg.device_class_mappings)
    users = _users(ctx)
    for key, template in sorted(ctx.cluster.claim_templates.items()):
        for dc, path in template.class_fields:
            if dc in mapping:
                continue
            used = users.get(key, [])
            who = f"; Workload(s) {', '.join(wl.key for wl in used[:3])} stay pending" if used else ""
            yield Finding(path, f"device class {dc} of ResourceClaimTemplate {key[0]}/{key[1]} is in no "
                                f"resources.deviceClassMappings entry: Kueue does not admit a Workload that uses it "
                                f"(DeviceClass {dc} is not mapped in DRA configuration){who}",
                          type=None, subject=template, related=(loc(cfg), *(loc(wl) for wl in used[:3])),
                          hint=f"Add {dc} to the deviceClassNames of a resources.deviceClassMappings entry and "
                               "restart Kueue's manager.")


def _users(ctx) -> dict[tuple[str, str], list]:
    """(namespace, template) -> the Workloads whose pod sets use it, in input order."""
    out: dict[tuple[str, str], list] = {}
    for wl in objects_of(ctx.cluster, "Workload"):
        for key in dict.fromkeys((wl.namespace, s.template) for ps in wl.pod_sets for s in ps.claims if s.template):
            out.setdefault(key, []).append(wl)
    return out
