"""Per-pod requests of a printed Workload pod set, compared by value."""

from fractions import Fraction

from quotactl.model.podspec import effective_pod_requests
from quotactl.model.quantity import Quantity


def per_pod(pod_set: dict) -> dict[str, Fraction]:
    return {k: v.as_fraction() for k, v in effective_pod_requests(pod_set["template"]["spec"]).items() if v.nanos}


def quantities(values: dict[str, str]) -> dict[str, Fraction]:
    return {k: Quantity.parse(v).as_fraction() for k, v in values.items()}


def pod_sets(workload: dict) -> list[tuple[str, int]]:
    return [(ps["name"], ps["count"]) for ps in workload["spec"]["podSets"]]
