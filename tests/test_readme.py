"""The README is the front door: its day in ten steps runs as written, and its links lead
somewhere."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bench.server import running_service

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def the_day_in_ten_steps() -> str:
    """The shell block under "A club day in ten steps", without its line starting the server."""
    section = README.read_text().split("## A club day in ten steps", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    return "\n".join(line for line in block.splitlines() if not line.startswith("make run"))


def test_the_readme_stays_a_front_door() -> None:
    assert len(README.read_text().splitlines()) <= 250


def test_every_local_link_of_the_readme_and_the_docs_leads_to_a_file() -> None:
    pages = [README, *sorted((ROOT / "docs").glob("*.md"))]
    broken = [
        f"{page.name}: {target}"
        for page in pages
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text())
        if not target.startswith(("http://", "https://")) and not (page.parent / target).exists()
    ]
    assert not broken


@pytest.mark.skipif(
    not (shutil.which("curl") and shutil.which("jq")), reason="the walkthrough needs curl and jq"
)
def test_the_club_day_of_the_readme_runs_to_the_season_ranking() -> None:
    with running_service("--start-time", "2026-04-18T11:00:00+02:00") as base_url:
        port = base_url.rsplit(":", 1)[1]
        run = subprocess.run(
            ["bash", "-e", "-o", "pipefail", "-c", the_day_in_ten_steps()],
            env={"PATH": "/usr/bin:/bin:/usr/local/bin", "PORT": port},
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert sum('"status":"registered"' in line for line in lines) == 8
    assert '{"status":"running","players":8,"pot_cents":64000}' in lines
    assert sum('"stage":"knockout"' in line for line in lines) == 2
    places = [line for line in lines if re.fullmatch(r'\[\d,"\w+ M\."\]', line)]
    assert [int(place[1]) for place in places] == list(range(1, 9))
    final = next(line for line in lines if line.startswith('{"status":"final"'))
    assert final.count('"amount_cents"') == 3
    ranking = [line for line in lines if re.fullmatch(r'\[\d,"\w+ M\.",\d+\]', line)]
    assert len(ranking) == 8
