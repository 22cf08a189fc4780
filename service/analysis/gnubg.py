"""GNU Backgammon as a program: finds it, runs it on a ``.mat`` at 0 ply, reads its statistics.

rule A-ANALYSIS-2: ``gnubg -t -q -r -c FILE`` (text mode, quiet, no rc files, commands from a
file) with ``LC_ALL=C``, since a German locale prints decimal commas. The program runs in a
fresh temporary folder that is also its ``HOME`` (gnubg keeps settings there), so that no
earlier run or a user's settings can change its figures; a run over the time limit is killed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from domain.match_analysis import ANALYSIS_PLIES, GnubgOutputError, GnubgStatistics, read_statistics

DEBIAN_PROGRAM = Path("/usr/games/gnubg")
"""Where the Debian package installs gnubg (not on root's PATH)."""

COMMANDS = f"""set analysis chequerplay evaluation plies {ANALYSIS_PLIES}
set analysis cubedecision evaluation plies {ANALYSIS_PLIES}
import mat match.mat
analyse match
show statistics match
"""
"""gnubg's defaults otherwise: cubeful, noiseless evaluation."""


def find_program(configured: str | None) -> Path | None:
    """``BGTD_GNUBG`` when set (None where it is no program), else ``gnubg`` on PATH, else
    the Debian package's ``/usr/games/gnubg``."""
    if configured:
        found = shutil.which(configured)
        return Path(found) if found else None
    found = shutil.which("gnubg")
    if found:
        return Path(found)
    return DEBIAN_PROGRAM if shutil.which(str(DEBIAN_PROGRAM)) else None


class Gnubg:
    """Runs gnubg on one match at a time; a failure is an answer in words, never an error."""

    def __init__(self, configured: str | None, timeout_seconds: float) -> None:
        self.configured = configured
        """``BGTD_GNUBG``, or None for the usual places."""
        self.timeout_seconds = timeout_seconds

    @property
    def program(self) -> Path | None:
        """Looked up at each use: gnubg installed while the service runs is found."""
        return find_program(self.configured)

    def analyse(self, mat: str) -> GnubgStatistics | str:
        """The statistics of the match ``mat`` at 0 ply, or why there are none."""
        program = self.program
        if program is None:
            return "GNU Backgammon is not installed"
        try:
            completed = self._run(program, mat)
        except subprocess.TimeoutExpired:
            return f"GNU Backgammon did not finish within {self.timeout_seconds:g} seconds"
        except OSError as failed:  # no room for its files, or it cannot be started
            return f"GNU Backgammon could not be run: {failed.strerror or failed}"
        try:
            return read_statistics(completed.stdout)
        except GnubgOutputError as unreadable:
            last = (completed.stderr.strip() or completed.stdout.strip()).splitlines()[-1:]
            detail = f"; it said: {last[0][:200]}" if last else ""
            return f"{unreadable} (exit code {completed.returncode}){detail}"

    def _run(self, program: Path, mat: str) -> subprocess.CompletedProcess[str]:
        with tempfile.TemporaryDirectory(prefix="bgtd-gnubg-") as folder:
            work = Path(folder)
            (work / "match.mat").write_text(mat, encoding="utf-8")
            (work / "commands.txt").write_text(COMMANDS, encoding="utf-8")
            environment = {"LC_ALL": "C", "HOME": folder, "PATH": os.environ.get("PATH", "")}
            return subprocess.run(
                [str(program), "-t", "-q", "-r", "-c", "commands.txt"],
                cwd=work,
                env=environment,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                errors="replace",
                timeout=self.timeout_seconds,
                check=False,
            )
