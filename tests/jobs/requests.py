"""Per-pod requests of a printed Workload pod set, as a {resource: canonical quantity} map."""

from quotactl.model.podspec import effective_pod_requests


def per_pod(pod_set: dict) -> dict[str, str]:
    return {k: v.canonical() for k, v in effective_pod_requests(pod_set["template"]["spec"]).items() if v.nanos}


def pod_sets(workload: dict) -> list[tuple[str, int]]:
    return [(ps["name"], ps["count"]) for ps in workload["spec"]["podSets"]]
