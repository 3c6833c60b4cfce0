"""RayCluster and RayJob (``raycluster/common.go`` BuildPodSets, ``rayjob/rayjob_controller.go``):
the head, one pod set per worker group, and for a RayJob in K8sJobMode the submitter."""

from __future__ import annotations

from quotactl.jobs.fields import Malformed, Path, opt_dict, opt_int, opt_list, opt_str, req_dict
from quotactl.jobs.generic import GenericJob, PodSetSpec
from quotactl.jobs.podtemplate import pod_template
from quotactl.model.quantity import Quantity

FT_ANNOTATION = "ray.io/ft-enabled"
# KubeRay's defaults for the containers it adds (the autoscaler sidecar, the job submitter).
AUTOSCALER_RESOURCES = {"requests": {"cpu": "500m", "memory": "512Mi"}, "limits": {"cpu": "500m", "memory": "512Mi"}}
SUBMITTER_RESOURCES = {"requests": {"cpu": "500m", "memory": "200Mi"}, "limits": {"cpu": "1", "memory": "1Gi"}}
# GCS fault tolerance: the head must fit KubeRay's Redis cleanup Job.
FT_HEAD_MINIMUM = {"cpu": "200m", "memory": "256Mi"}


class RayCluster(GenericJob):
    kind = "RayCluster"
    api_group = "ray.io"
    versions = ("v1",)
    cluster_path: Path = ("spec",)

    def pod_sets(self) -> list[PodSetSpec]:
        return ray_cluster_pod_sets(self.data, self.cluster_path, self.annotations.get(FT_ANNOTATION) == "true")


class RayJob(GenericJob):
    kind = "RayJob"
    api_group = "ray.io"
    versions = ("v1",)
    cluster_path: Path = ("spec", "rayClusterSpec")

    def finished(self) -> bool:
        return opt_dict(self.data, ("status",)).get("jobDeploymentStatus") in ("Complete", "Failed")

    def skip_reason(self) -> str | None:
        if opt_dict(self.data, ("spec", "clusterSelector")):
            return "spec.clusterSelector: the RayJob runs on an existing RayCluster, which Kueue admits instead"
        return None

    def pod_sets(self) -> list[PodSetSpec]:
        req_dict(self.data, self.cluster_path, "rayClusterSpec")
        pod_sets = ray_cluster_pod_sets(self.data, self.cluster_path, self.annotations.get(FT_ANNOTATION) == "true")
        mode = opt_str(self.data, ("spec", "submissionMode")) or "K8sJobMode"
        if mode == "SidecarMode":
            pod_sets[0].template["spec"]["containers"].append(
                {"name": "ray-job-submitter", "resources": _copy(SUBMITTER_RESOURCES)})
        elif mode == "K8sJobMode":
            pod_sets.append(PodSetSpec("submitter", 1, self._submitter_template()))
        return pod_sets

    def _submitter_template(self) -> dict:
        path = ("spec", "submitterPodTemplate")
        if opt_dict(self.data, path):
            return pod_template(self.data, path)
        return {"spec": {"restartPolicy": "Never",
                         "containers": [{"name": "ray-job-submitter", "resources": _copy(SUBMITTER_RESOURCES)}]}}


def ray_cluster_pod_sets(data: dict, path: Path, ft_annotation: bool) -> list[PodSetSpec]:
    head = pod_template(data, path + ("headGroupSpec", "template"))
    if opt_dict(data, path).get("gcsFaultToleranceOptions") or ft_annotation:
        _keep_max_requests(head["spec"]["containers"][0], FT_HEAD_MINIMUM)
    if opt_dict(data, path).get("enableInTreeAutoscaling") is True:
        options = opt_dict(data, path + ("autoscalerOptions",))
        resources = options.get("resources") if isinstance(options.get("resources"), dict) else None
        head["spec"]["containers"].append({"name": "autoscaler", "resources": _copy(resources or AUTOSCALER_RESOURCES)})
    out = [PodSetSpec("head", 1, head)]
    for i, _ in enumerate(opt_list(data, path + ("workerGroupSpecs",))):
        group = path + ("workerGroupSpecs", i)
        req_dict(data, group, "worker group")
        name = opt_str(data, group + ("groupName",))
        if not name:
            raise Malformed(group + ("groupName",), "worker group has no groupName")
        # KubeRay's CRD defaults replicas to 0 and numOfHosts to 1.
        replicas = opt_int(data, group + ("replicas",), 0)
        hosts = opt_int(data, group + ("numOfHosts",), 1)
        count = replicas * hosts if hosts > 1 else replicas
        out.append(PodSetSpec(name.lower(), count, pod_template(data, group + ("template",))))
    return out


def _keep_max_requests(container: dict, minimum: dict) -> None:
    requests = container.setdefault("resources", {}).setdefault("requests", {})
    for name, value in minimum.items():
        if name not in requests or Quantity.parse(requests[name]) < Quantity.parse(value):
            requests[name] = value


def _copy(resources: dict) -> dict:
    return {k: dict(v) for k, v in resources.items()}
