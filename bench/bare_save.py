"""The floor under match play: the bare eventsourcing save rate on this machine, now.

An eventsourcing ``Application`` of the library's own ``Aggregate`` on SQLite as the library
sets it up (a file in a temporary directory, WAL mode, the library's durability), saving one
small event per command, one command at a time, in this process. No HTTP, no rules, no
sealing: what a command costs at the least. ``bench/matches.py`` measures it in the same run
as match play and shows plays per second as a ratio of it, which says more across machines
and moments than plays per second alone (the machine is shared, its speed varies).
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event


class _Table(Aggregate):
    """A board that records plays: one small event per command."""

    @event("Opened")
    def __init__(self) -> None:
        self.plays = 0

    @event("Played")
    def play(self, notation: str) -> None:
        self.plays += 1


class _BareApplication(Application[UUID]):
    name = "bare"


@dataclass(frozen=True)
class SaveRate:
    saves_per_second: float
    cpu_ms_per_save: float
    """This process's CPU (user and system) per save."""


def measure(seconds: float = 2.0) -> SaveRate:
    """Saves per second of one aggregate's events, each saved alone, for ``seconds``."""
    with tempfile.TemporaryDirectory(prefix="bgtd-bench-bare-") as directory:
        application = _BareApplication(
            env={
                "PERSISTENCE_MODULE": "eventsourcing.sqlite",
                "SQLITE_DBNAME": str(Path(directory) / "events.sqlite3"),
            }
        )
        try:
            table = _Table()
            application.save(table)
            saves = 0
            started, cpu = time.perf_counter(), time.process_time()
            stop_at = started + seconds
            while time.perf_counter() < stop_at:
                table.play("24/18 13/8")
                application.save(table)
                saves += 1
            elapsed = time.perf_counter() - started
            spent = time.process_time() - cpu
        finally:
            application.close()
    return SaveRate(saves / elapsed, 1000 * spent / saves)


def run() -> SaveRate:
    rate = measure()
    print(
        f"bare eventsourcing save (SQLite, WAL): {rate.saves_per_second:,.0f} saves/s, "
        f"{rate.cpu_ms_per_save:.3f} ms CPU per save"
    )
    return rate


if __name__ == "__main__":
    run()
