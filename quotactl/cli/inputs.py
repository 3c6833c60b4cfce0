"""The preamble of every command, written once: require and load the input (exit 2 when it is
unusable), check its dialect, derive Kueue's engine options, and finish with the report and the
exit code."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import NoReturn

import typer

from quotactl.cli.common import EXIT_OK, UsageError, emit, fail_usage
from quotactl.cli.engine_input import job_workload, load_engine_input, warn_gate_settings, warn_skipped_jobs
from quotactl.jobs.resolve import ResolvedJobs, resolve_jobs
from quotactl.kueue.options import EngineOptions, admission_check_states, engine_options
from quotactl.load.objects import Dialect, LoadResult, load
from quotactl.load.sources import limits_from_env
from quotactl.model.features import parse_gate_list
from quotactl.model.kueue import KueueCluster, build_cluster
from quotactl.model.kueue_versions import DEFAULT_RELEASE

NO_SNAPSHOT = "no input: give the cluster snapshot with -f FILE (or -f - for stdin)"
MIXED = "the input mixes Kueue objects and YuniKorn objects; run quotactl once per scheduler"


@dataclass(frozen=True)
class EngineInput:
    """A loaded cluster snapshot (job objects resolved to their Workloads) and the --feature-gates
    overrides."""

    loaded: LoadResult
    gates: dict
    jobs: ResolvedJobs = field(default_factory=lambda: ResolvedJobs([]))
    release: str = DEFAULT_RELEASE  # --kueue-version

    @property
    def dialects(self) -> set[str]:
        return self.loaded.dialects

    def workload_name(self, query: str) -> str:
        """The Workload a WORKLOAD argument names: itself, or the Workload of the job it names."""
        return job_workload(self.jobs, query)

    def refuse_mixed(self) -> None:
        if len(self.dialects) > 1:
            fail_usage(MIXED)

    def kueue_options(self, cluster: KueueCluster, fair_sharing: bool | None) -> EngineOptions:
        """Kueue's engine options: the command line over the input's Configuration."""
        return engine_options(cluster, fair_sharing=fair_sharing, feature_gates=self.gates,
                              admission_checks=admission_check_states(self.loaded.objects), release=self.release)


def engine_input(files: list[str] | None, max_file_size: str | None, feature_gates: str | None,
                 what: str | None = None, *, release: str = DEFAULT_RELEASE) -> EngineInput:
    """The snapshot of an engine command (explain, preempt, shares, schedule, diff); exits 2 when
    there is none or it is unusable."""
    if not files:
        fail_usage(NO_SNAPSHOT)
    loaded, gates = load_engine_input(list(files), max_file_size, feature_gates, what, release=release)
    if Dialect.YUNIKORN in loaded.dialects:
        return EngineInput(loaded, gates, release=release)  # YuniKorn schedules pods itself
    jobs = resolve_jobs(loaded.objects)
    warn_skipped_jobs(jobs)
    return EngineInput(replace(loaded, objects=jobs.objects), gates, jobs, release)


def kueue_input(files: list[str], max_file_size: str | None, fair_sharing: bool | None, feature_gates: str | None,
                what: str = "input", *, release: str = DEFAULT_RELEASE) -> tuple[KueueCluster, EngineOptions]:
    """A Kueue-only snapshot (schedule, diff), its cluster and engine options."""
    inp = engine_input(files, max_file_size, feature_gates, what, release=release)
    if inp.dialects and inp.dialects != {Dialect.KUEUE}:
        fail_usage(f"{what}: schedule and diff simulate Kueue; the input holds YuniKorn objects")
    cluster = build_cluster(inp.loaded.objects)
    return cluster, inp.kueue_options(cluster, fair_sharing)


def config_input(paths: list[str], max_file_size: str | None, feature_gates: str | None = None,
                 release: str = DEFAULT_RELEASE) -> tuple[LoadResult, dict]:
    """The files of ``lint`` / ``queues``, whose input problems are findings, not usage errors;
    exits 2 only when the files cannot be read or an option is malformed."""
    try:
        gates = parse_gate_list(feature_gates, release) if feature_gates else {}
        warn_gate_settings(gates, release)
        loaded = load(paths, limits=limits_from_env(max_file_size))
    except (UsageError, ValueError) as exc:
        fail_usage(str(exc))
        raise  # unreachable: fail_usage exits
    return loaded, gates


def finish(command: str, result: object, output: Enum, code: int = EXIT_OK) -> NoReturn:
    """Write the report and exit with ``code``."""
    emit(command, result, output)
    raise typer.Exit(code)
