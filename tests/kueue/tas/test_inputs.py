"""The TAS inputs in the typed model (``model/kueue_tas.py``): topology assignments in v1beta2's
compact form (Kueue's ``utiltas.InternalFrom``) and v1beta1's domains, topology requests from the
pod set or from the job integrations' annotations, Nodes and Pods."""

from __future__ import annotations

from quotactl.model.kueue_tas import (
    SliceConstraint,
    TopologyDomainAssignment,
    build_topology_assignment,
    build_topology_request,
)

HOST = "kubernetes.io/hostname"


def test_the_compact_form_is_decompressed():
    raw = {"levels": ["rack", HOST], "slices": [
        {"domainCount": 2, "valuesPerLevel": [{"universal": "r1"}, {"individual": {"prefix": "n-", "roots": ["1", "2"]}}],
         "podCounts": {"individual": [3, 1]}},
        {"domainCount": 1, "valuesPerLevel": [{"universal": "r2"}, {"individual": {"roots": ["x"], "suffix": ".a"}}],
         "podCounts": {"universal": 2}}]}
    ta = build_topology_assignment(raw)
    assert ta.levels == ("rack", HOST)
    assert ta.domains == (TopologyDomainAssignment(("r1", "n-1"), 3), TopologyDomainAssignment(("r1", "n-2"), 1),
                          TopologyDomainAssignment(("r2", "x.a"), 2))
    assert ta.pod_count == 6


def test_v1beta1_domains_are_read_as_they_are():
    ta = build_topology_assignment({"levels": [HOST], "domains": [{"values": ["x1"], "count": 2}]})
    assert ta.domains == (TopologyDomainAssignment(("x1",), 2),)


def test_a_broken_slice_is_left_out_not_a_crash():
    assert build_topology_assignment({"levels": [HOST], "slices": [{"domainCount": 2, "valuesPerLevel": [
        {"individual": {"roots": ["x1"]}}], "podCounts": {"universal": 1}}]}).domains == ()
    assert build_topology_assignment("nonsense") is None


def test_requests_from_the_spec_and_from_annotations():
    r = build_topology_request({"required": "rack", "podSetSliceRequiredTopology": HOST, "podSetSliceSize": 2}, {})
    assert r.slice_layers() == (SliceConstraint(HOST, 2),) and r.is_explicit
    a = build_topology_request(None, {"kueue.x-k8s.io/podset-preferred-topology": "rack",
                                      "kueue.x-k8s.io/podset-group-name": "g"})
    assert (a.preferred, a.pod_set_group_name) == ("rack", "g")
    assert build_topology_request(None, {}) is None
