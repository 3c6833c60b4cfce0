"""``quotactl simulate``: Kueue's scheduler on a virtual clock (arrivals, runtimes, completions,
preemptions and re-runs), from a snapshot, a trace, a scheduler-performance generator config, or
several of them."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import typer

from quotactl.cli.caveats import StrictOption, kueue_caveats_of, strict_code
from quotactl.cli.common import (
    EXIT_OK,
    ClusterArgs,
    FairSharingOption,
    FeatureGatesOption,
    FileOption,
    KueueVersionOption,
    MaxFileSizeOption,
    cluster_options,
    fail_usage,
    is_document,
    simulation_options,
)
from quotactl.cli.filters import selected, selection_of
from quotactl.cli.inputs import EngineInput, check_cluster_args, engine_input, finish
from quotactl.cli.output import output_option
from quotactl.cli.simulate_progress import progress_bar, write_html
from quotactl.kueue.selection import restrict_simulation
from quotactl.load.objects import Dialect, LoadResult
from quotactl.model.gc_pause import one_shot_collector_off
from quotactl.report.renderers import Outcome
from quotactl.report.simulate_plot import PlotOptions
from quotactl.simulate.cadence import FIXPOINT, Cadence, preset
from quotactl.simulate.clock import parse_duration, parse_instant, rfc3339, until_micros

NO_INPUT = ("no input: give the cluster with -f FILE (or -f - for stdin, or --from-cluster), "
            "a generator config with --generator FILE, or both")


SIM_OPTIONS = simulation_options()


@cluster_options
def simulate_command(
    files: list[str] = FileOption,
    generator: str = typer.Option(None, "--generator", metavar="FILE",
                                  help="A Kueue scheduler-performance generator config (generator.yaml format)."),
    start: str = typer.Option(None, "--start", metavar="TIME",
                              help="t0: an RFC 3339 time or 'now' (default: the snapshot's newest time when it "
                                   "holds admitted workloads, else the earliest creationTimestamp)."),
    until: str = typer.Option(None, "--until", metavar="TIME|DURATION",
                              help="Stop the clock at this RFC 3339 time or this long after t0."),
    default_runtime: str = SIM_OPTIONS["default_runtime"],
    cycle_interval: str = SIM_OPTIONS["cycle_interval"],
    cadence: str = SIM_OPTIONS["cadence"],
    admission_cost: str = typer.Option(None, "--admission-cost", metavar="DURATION",
                                       help="With --cycle-interval: virtual time each admission of a cycle takes."),
    jobs: int = typer.Option(0, "--jobs", "-j", min=0, max=256, metavar="N",
                             help="Worker processes for independent cohort trees in fixpoint mode (the answer is "
                                  "the same): 0, the default, one per CPU; 1, a single process."),
    output: str = output_option("simulate"),
    html: str = typer.Option(None, "--html", metavar="FILE",
                             help="Also write the report (tables and charts) as one self-contained HTML page."),
    no_plot: bool = typer.Option(False, "--no-plot", help="No terminal plot of pending workloads and usage."),
    plot_per_queue: bool = typer.Option(False, "--plot-per-queue",
                                        help="Plot the busiest ClusterQueues too, not only the cluster total."),
    fair_sharing: bool = FairSharingOption,
    feature_gates: str = FeatureGatesOption,
    kueue_version: str = KueueVersionOption,
    strict: bool = StrictOption,
    max_file_size: str = MaxFileSizeOption,
    cluster: ClusterArgs = ClusterArgs(),
) -> None:
    """Simulate Kueue in virtual time: workloads arrive (at their creationTimestamp, or from a
    generator config), are admitted by Kueue's own scheduling cycles (the engine of 'schedule'),
    run for their runtime (annotation quotactl.io/runtime, else spec.maximumExecutionTimeSeconds,
    else --default-runtime) and finish; preempted ones go back to their queue and run again in
    full.  Reports every workload's admissions, evictions, finish and wait, and per ClusterQueue
    and class: admissions, preemptions, lost work, wait statistics and usage of nominal quota.

    \b
      kubectl get resourceflavors,clusterqueues,cohorts,localqueues,workloads \\
          -A -o yaml | quotactl simulate -f - --until 24h
      quotactl simulate --generator generator.yaml --cadence kueue-harness

    -n NS reports the workloads of one namespace (every namespace's workloads are still simulated).

    Exit status: 0 (pending workloads and livelocks are results), 1 with --strict when the input
    holds a feature quotactl does not model (a caveat), 2 unusable input.
    """
    from quotactl.simulate.errors import SimulationInputError
    from quotactl.simulate.run import SimulationOptions, simulate
    from quotactl.simulate.split import available_cpus

    one_shot_collector_off()

    check_cluster_args(cluster, filters=True)
    selection = selection_of(cluster)
    if not files and not cluster.from_cluster and not generator:
        fail_usage(NO_INPUT)
    sim = SimulationOptions(start=_start(start), until=_until(until),
                            default_runtime=_duration("--default-runtime", default_runtime),
                            cadence=_cadence(cycle_interval, cadence, admission_cost),
                            jobs=jobs or available_cpus())
    inp = _loaded(files, max_file_size, feature_gates, cluster, kueue_version, snapshot=generator is None)
    try:
        model, t0 = _model(inp, generator, sim.start)
        if isinstance(sim.until, datetime) and sim.until < t0:
            fail_usage(f"--until {until} is before the start of the simulation ({rfc3339(t0)})")
        options = inp.kueue_options(model, fair_sharing)
        caveats = kueue_caveats_of(inp.loaded, model, options)
        with progress_bar(is_document(output), until_micros(t0, sim.until)) as progress:
            result = simulate(model, options, sim, t0=t0, progress=progress)
    except SimulationInputError as exc:
        fail_usage(str(exc))
        raise  # unreachable: fail_usage exits
    if selection:
        result = restrict_simulation(result, selection, selected(model, selection, inp.jobs))
    opts = PlotOptions(plot=not no_plot, per_queue=plot_per_queue, html=html)
    if html is not None:
        write_html(html, result, opts)
    finish("simulate", Outcome(result, None if is_document(output) else opts, caveats), output,
           strict_code(EXIT_OK, strict, caveats))


def _loaded(files, max_file_size, feature_gates, cluster: ClusterArgs, release: str, snapshot: bool) -> EngineInput:
    """The files (and cluster) as ``schedule`` reads them; with a generator alone, no objects.
    ``snapshot``: the run's queues come from them (not from a generator)."""
    if files or cluster.from_cluster:
        inp = engine_input(files, max_file_size, feature_gates, None, cluster, release=release, snapshot=snapshot)
        if inp.dialects and inp.dialects != {Dialect.KUEUE}:
            fail_usage("simulate runs Kueue's scheduler; the input holds YuniKorn objects")
        return inp
    from quotactl.model.features import parse_gate_list

    try:
        gates = parse_gate_list(feature_gates, release) if feature_gates else {}
    except ValueError as exc:
        fail_usage(str(exc))
        raise  # unreachable: fail_usage exits
    from quotactl.model.kueue_input import KueueInput

    return EngineInput(LoadResult(), gates, release=release, model=KueueInput([]))


def _model(inp: EngineInput, generator: str | None, start: datetime | None):
    """The cluster model and t0.  A generator's objects join the loaded ones in the model; its
    workloads are created from t0 on, so t0 is decided on the loaded input first."""
    from quotactl.model.kueue import build_cluster
    from quotactl.simulate.scenario import start_time

    base = inp.model.cluster()
    t0 = start_time(base, start)
    if generator is None:
        return base, t0
    from quotactl.simulate.generated import generated_objects
    from quotactl.simulate.generator import GeneratorError, read_generator

    try:
        scenario = read_generator(generator)
    except GeneratorError as exc:
        fail_usage(str(exc))
        raise  # unreachable: fail_usage exits
    return build_cluster(generated_objects(scenario, t0), onto=base), t0


def _parsed(flag: str, text: str | None, parse):
    """``parse(text)``, None when not given; a bad value is a usage error naming ``flag``."""
    if text is None:
        return None
    try:
        return parse(text)
    except ValueError as exc:
        fail_usage(f"{flag}: {exc}")
        raise  # unreachable: fail_usage exits


def _duration(flag: str, text: str | None) -> int | None:
    return _parsed(flag, text, parse_duration)


def _start(text: str | None) -> datetime | None:
    return _parsed("--start", text, parse_instant)


def _until(text: str | None) -> datetime | int | None:
    """An RFC 3339 time (it has a 'T'), else a duration from t0."""
    if text is not None and "t" in text.lower() and not text.strip()[:1].isalpha():
        return _parsed("--until", text, parse_instant)
    return _duration("--until", text)


def _cadence(interval: str | None, name: str | None, cost: str | None) -> Cadence:
    if interval is not None and name is not None:
        fail_usage("give either --cycle-interval or --cadence, not both")
    if name is not None:
        try:
            chosen = preset(name)
        except KeyError as exc:
            fail_usage(f"--cadence: {exc.args[0]}")
            raise  # unreachable: fail_usage exits
        # the preset's other limits stay; only the admission cost is replaced
        return chosen if cost is None else replace(chosen, admission_cost=_duration("--admission-cost", cost))
    d = _duration("--cycle-interval", interval) or 0
    c = _duration("--admission-cost", cost) or 0
    if not d and not c:
        return FIXPOINT
    return _made(d, c)


def _made(interval: int, cost: int | None) -> Cadence:
    try:
        return Cadence(interval, cost or 0, "command line")
    except ValueError as exc:
        fail_usage(f"--admission-cost: {exc}")
        raise  # unreachable: fail_usage exits
