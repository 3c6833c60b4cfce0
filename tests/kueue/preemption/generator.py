"""Random Kueue clusters for the preemption property tests, in the spirit of the kueue-diff
generator (tests/acceptance/cases/kueue-diff-preempt/README.md): flat and hierarchical cohorts, cohort
quotas, borrowing and lending limits, every preemption policy, borrowWithinCohort thresholds,
fair sharing with weights (0 included) and strategies, priorities with ties, and admitted
workloads added greedily only while they fit (a state Kueue could have reached)."""

from __future__ import annotations

import random

from tests.kueue.builders import (
    admit_greedily,
    admitted,
    cohort,
    configuration,
    cq,
    flavor,
    pending,
)

RESOURCES = ("cpu", "memory", "example.com/gpu")
STRATEGIES = (None, ["LessThanOrEqualToFinalShare"], ["LessThanInitialShare"],
              ["LessThanOrEqualToFinalShare", "LessThanInitialShare"])


def _quota(rnd: random.Random, limits: bool):
    nominal = rnd.choice([0, 2, 4, 4, 6, 8])
    bl = rnd.choice([None, None, None, 0, 2, 4, 8]) if limits else None
    ll = rnd.choice([None, None, None, None, 0, nominal // 2, nominal]) if limits else None
    return (nominal, bl, ll)


def random_cluster(seed: int) -> list[dict]:
    rnd = random.Random(seed)
    flavors = [f"f{i}" for i in range(rnd.choice([1, 1, 2, 3]))]
    resources = list(RESOURCES[:rnd.choice([1, 2, 2, 3])])
    objs: list[dict] = [flavor(f) for f in flavors]
    fair = rnd.random() < 0.35
    if fair:
        objs.append(configuration(True, rnd.choice(STRATEGIES)))
    topology = rnd.choice(["standalone", "flat", "flat", "hier", "hier"])
    cohorts: list[str] = []
    if topology == "flat":
        cohorts = ["team"]
        if rnd.random() < 0.3:
            objs.append(cohort("team", weight=rnd.choice([None, 1, 2])))
    elif topology == "hier":
        cohorts = ["root"]
        objs.append(cohort("root"))
        for i in range(rnd.randint(1, 3)):
            name = f"c{i}"
            parent = rnd.choice(cohorts)
            groups = None
            if rnd.random() < 0.4:
                groups = [(resources, [(f, {r: _quota(rnd, True) for r in resources}) for f in flavors])]
            objs.append(cohort(name, parent=parent, groups=groups,
                               weight=rnd.choice([None, 1, 2, "500m", 0]) if fair else None))
            cohorts.append(name)
    cq_names = [f"cq{i}" for i in range(rnd.randint(1, 5))]
    priorities = rnd.choice([[0, 10, 100], [-10, 0, 10], [1, 2, 3], [100, 1000], [0]])
    target = rnd.choice(cq_names)
    for name in cq_names:
        co = rnd.choice(cohorts) if cohorts and rnd.random() < 0.95 else None
        order = list(flavors)
        rnd.shuffle(order)
        groups = [(resources, [(f, {r: _quota(rnd, co is not None) for r in resources}) for f in order])]
        reclaim = rnd.choice(["Never", "LowerPriority", "Any"]) if co else "Never"
        borrow = "LowerPriority" if reclaim != "Never" and rnd.random() < 0.45 else None
        threshold = rnd.choice(priorities) if borrow and rnd.random() < 0.5 else None
        within = rnd.choice(["Never", "LowerPriority", "LowerPriority", "LowerOrNewerEqualPriority"])
        if name == target and rnd.random() < 0.5:  # raise the preemptor's policies: preemption is frequent
            within = rnd.choice(["LowerPriority", "LowerOrNewerEqualPriority"])
            if co:
                reclaim = rnd.choice(["LowerPriority", "Any"])
                borrow = "LowerPriority" if rnd.random() < 0.5 else borrow
        weight = rnd.choice([None, None, 1, 2, "500m", "1500m", 0]) if fair else None
        objs.append(cq(name, groups, cohort=co, within=within, reclaim=reclaim, borrow=borrow, threshold=threshold,
                       when_can_borrow=rnd.choice(["MayStopSearch", "TryNextFlavor"]),
                       when_can_preempt=rnd.choice(["MayStopSearch", "TryNextFlavor"]), weight=weight))
    candidates = []
    for i in range(rnd.randint(0, 40)):
        f = rnd.choice(flavors)
        usage = {(f, r): rnd.choice([0, 1, 2, 2, 3, 4]) for r in resources}
        candidates.append(admitted(f"w{i:02d}", rnd.choice(cq_names), usage, priority=rnd.choice(priorities),
                                   reserved=10 + i * 7, created=i, evicted=rnd.random() < 0.05,
                                   uid=f"uid-{seed}-{rnd.randint(0, 99):02d}-{i:02d}"))
    objs = admit_greedily(objs, candidates)
    objs.append(pending("incoming", f"q-{target}", {r: rnd.choice([0, 1, 2, 2, 3, 4, 5]) for r in resources},
                        count=rnd.choice([1, 1, 2]), priority=rnd.choice(priorities), created=5000,
                        uid=f"uid-{seed}-incoming"))
    return objs
