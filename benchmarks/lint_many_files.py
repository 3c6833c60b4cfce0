"""Time `quotactl lint` over N generated ClusterQueue files (plus their flavors and cohorts)."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CQ = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: team-{i:05d}
spec:
  cohortName: dept-{dept}
  namespaceSelector:
    matchLabels:
      team: team-{i:05d}
  preemption:
    reclaimWithinCohort: Any
    withinClusterQueue: LowerPriority
  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors:
    - name: on-demand
      resources:
      - name: cpu
        nominalQuota: {cpu}
        borrowingLimit: 4
      - name: memory
        nominalQuota: {mem}Gi
    - name: spot
      resources:
      - name: cpu
        nominalQuota: {cpu}
      - name: memory
        nominalQuota: {mem}Gi
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: a100
      resources:
      - name: nvidia.com/gpu
        nominalQuota: {gpu}
"""

SHARED = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: on-demand}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: spot}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: a100}
"""


def generate(root: Path, n: int) -> None:
    (root / "flavors.yaml").write_text(SHARED)
    for i in range(n):
        (root / f"cq-{i:05d}.yaml").write_text(CQ.format(i=i, dept=i % 20, cpu=8 + i % 5, mem=32 + i % 7, gpu=i % 3))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        generate(root, args.files)
        size = sum(f.stat().st_size for f in root.iterdir())
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "quotactl", "lint", str(root), "--output", "json"],
                                  capture_output=True, text=True)
            times.append(time.perf_counter() - t0)
            if proc.returncode not in (0, 1):
                sys.exit(f"quotactl failed: rc={proc.returncode} {proc.stderr[-500:]}")
        print(f"lint {args.files} ClusterQueue files ({size / 1e6:.1f} MB): best {min(times):.2f}s, "
              f"median {statistics.median(times):.2f}s over {args.runs} runs")


if __name__ == "__main__":
    main()
