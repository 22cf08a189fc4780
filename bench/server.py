"""Runs the service in a child process on a free localhost port, for load generators."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def running_service(
    *extra_arguments: str, dev: bool = True, environment: Mapping[str, str] | None = None
) -> Iterator[str]:
    """``bgtd serve`` (``--dev`` unless told otherwise) on a fresh data directory, with
    ``environment`` added to this process's; yields its base URL. The analysis of ended
    matches by gnubg is off unless ``environment`` turns it on: its runs would share the CPU
    with what is measured."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="bgtd-bench-") as data_dir:
        command = [sys.executable, "-m", "api.cli", "serve", "--port", str(port)]
        command += ["--dev"] if dev else []
        command += ["--data-dir", data_dir, *extra_arguments]
        process = subprocess.Popen(
            command,
            env={**os.environ, "BGTD_ANALYSIS": "off", **(environment or {})},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base_url = f"http://127.0.0.1:{port}"
        try:
            _wait_until_healthy(base_url)
            yield base_url
        finally:
            process.terminate()
            process.wait(timeout=10)


def _wait_until_healthy(base_url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(base_url + "/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the service did not answer at {base_url} within {timeout} s")


def cpu_seconds(pids: list[str]) -> float:
    """The CPU time (user and system) the processes have used so far (0 where /proc is not)."""
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile, or no /proc here
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")
