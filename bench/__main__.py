"""``make bench``: every benchmark, each printing its figures (targets are checked here)."""

from __future__ import annotations

import importlib

BENCHMARKS = [
    "bench.rules",
    "bench.analysis",
    "bench.pairing",
    "bench.standings",
    "bench.matches",
    "bench.live",
    "bench.rebuild",
]


def main() -> None:
    for name in BENCHMARKS:
        importlib.import_module(name).run()


if __name__ == "__main__":
    main()
