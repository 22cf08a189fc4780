"""``make bench``: every benchmark, each printing its figures, then one summary table.

``BENCH_ONLY=postgres,live`` runs only the named benchmarks (module names in ``bench/``); the
summary then shows what ran. Each benchmark reads its own variables to run shorter (see
docs/benchmarks.md).
"""

from __future__ import annotations

import importlib
import os
from typing import Any

BENCHMARKS = [
    "bench.rules",
    "bench.variants",
    "bench.analysis",
    "bench.pairing",
    "bench.standings",
    "bench.command_cpu",
    "bench.matches",
    "bench.postgres",
    "bench.live",
    "bench.rebuild",
    "bench.pages",
    "bench.ratings",
]


def summary(results: dict[str, Any]) -> str:
    """The table of the figures docs/benchmarks.md keeps: match play on SQLite against the bare
    eventsourcing save rate of the same run, plays on each store and number of processes,
    plays with live listeners, and the rebuild rate."""
    from bench.postgres import CLIENTS

    load = ", ".join(f"{each:.1f}" for each in os.getloadavg())
    lines = ["", f"summary (load average {load} at the end):"]
    matches = results.get("bench.matches")
    if matches:
        from bench.matches import CLIENTS as MATCH_CLIENTS

        title = f"match play, {MATCH_CLIENTS} server-dice clients"
        lines.append(
            f"  {title:<36} {'plays/s':>9} {'p50':>9} {'p99':>9}   bare saves/s   ratio"
            "   server's CPU per command"
        )
        lines.append(
            f"  {'SQLite, 1 process':<36} {matches['plays_per_second']:>9,.0f} "
            f"{matches['play_p50_ms']:>6.1f} ms {matches['play_p99_ms']:>6.1f} ms   "
            f"{matches['bare_saves_per_second']:>12,.0f}   {matches['ratio_to_bare_save']:.2f}x"
            f"   {matches['server_cpu_ms_per_command']:.3f} ms"
        )
    command_cpu = results.get("bench.command_cpu")
    if command_cpu:
        lines.append(
            f"  {'match command in the app (ASGI)':<36} {command_cpu['best_us']:>9,.0f} µs CPU "
            f"best, {command_cpu['median_us']:,.0f} µs median per command"
        )
    processes = results.get("bench.postgres") or []
    title = f"match play, {CLIENTS} entered-dice clients"
    if processes:
        lines.append(
            f"  {title:<36} {'plays/s':>9} {'p50':>9} {'p99':>9}   load   servers' CPU per command"
        )
    for figures in processes:
        if figures.plays_per_second is None:
            lines.append(f"  {figures.label:<36} {figures.note}")
        else:
            cpu = figures.cpu
            lines.append(
                f"  {figures.label:<36} {figures.plays_per_second:>9,.0f} "
                f"{figures.p50_ms:>6.1f} ms {figures.p99_ms:>6.1f} ms   {figures.load:.1f}"
                + (
                    f"    {cpu.servers:.2f} ms ({cpu.servers / cpu.client:.1f}x the client's)"
                    if cpu
                    else ""
                )
            )
    live = results.get("bench.live")
    if live:
        without, attached = live["plays_per_second_without"], live["plays_per_second_with"]
        lines.append(
            f"  {'live listeners (SQLite, 16 clients)':<36} {without:>9,.0f} plays/s without, "
            f"{attached:,.0f} with {live['listeners']:.0f} idle listeners "
            f"({attached / without:.0%})"
        )
    rebuild = results.get("bench.rebuild")
    if rebuild:
        lines.append(
            f"  {'rebuild of every view (SQLite)':<36} {rebuild['events_per_second']:>9,.0f} "
            f"events/s over {rebuild['events']:,.0f} events"
        )
    pages = results.get("bench.pages")
    if pages:
        from bench.pages import PLAYERS

        for name in ("round_page", "wallboard"):
            title = f"{name.replace('_', ' ')} ({PLAYERS} players, SQLite)"
            lines.append(
                f"  {title:<36} p50 {pages[f'{name}_p50_ms']:.1f} ms, "
                f"p99 {pages[f'{name}_p99_ms']:.1f} ms, CPU {pages[f'{name}_cpu_ms']:.1f} ms "
                "per page rendered"
            )
    ratings = results.get("bench.ratings")
    if ratings:
        lines.append(
            f"  {'rating import (SQLite)':<36} {ratings['rows']:>9,.0f} rows in "
            f"{ratings['import_seconds']:.2f} s (target < 5 s), rebuild "
            f"{ratings['rebuild_seconds']:.2f} s"
        )
    return "\n".join(lines)


def main() -> None:
    only = {name.strip() for name in os.environ.get("BENCH_ONLY", "").split(",") if name.strip()}
    results: dict[str, Any] = {}
    for name in BENCHMARKS:
        if only and name.removeprefix("bench.") not in only:
            continue
        results[name] = importlib.import_module(name).run()
    print(summary(results))


if __name__ == "__main__":
    main()
