"""The README is the front door: its day in ten steps runs as written, and its links lead
somewhere: to a file, to a heading of that file, and to the contracts in ../shared."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bench.server import running_service

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
SHARED = ROOT.parent / "shared"
LINK = re.compile(r"\]\(([^)\s#]*)(?:#([^)\s]*))?\)")
"""A Markdown link: its target file (empty for the same page) and its anchor, if any."""


def headings(page: Path) -> set[str]:
    """The anchors of a page's headings as GitHub makes them (lower case, punctuation dropped,
    spaces as hyphens); lines in fenced code blocks are no headings."""
    text = re.sub(r"^```.*?^```", "", page.read_text(), flags=re.MULTILINE | re.DOTALL)
    titles = re.findall(r"^#{1,6} +(.+?) *$", text, flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-") for title in titles}


def the_day_in_ten_steps() -> str:
    """The shell block under "A club day in ten steps", without its line starting the server."""
    section = README.read_text().split("## A club day in ten steps", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    return "\n".join(line for line in block.splitlines() if not line.startswith("make run"))


def test_the_readme_stays_a_front_door() -> None:
    assert len(README.read_text().splitlines()) <= 250


def test_every_local_link_of_the_readme_and_the_docs_leads_to_a_file() -> None:
    broken = [
        f"{page.name}: {target}"
        for page in PAGES
        for target, _ in LINK.findall(page.read_text())
        if target
        and not target.startswith(("http://", "https://"))
        and not (page.parent / target).exists()
    ]
    assert not broken


def test_every_anchor_of_a_local_link_names_a_heading_of_the_page_it_leads_to() -> None:
    broken = [
        f"{page.name}: {target}#{anchor}"
        for page in PAGES
        for target, anchor in LINK.findall(page.read_text())
        if anchor
        and not target.startswith(("http://", "https://"))
        and (linked := page.parent / target if target else page).is_file()
        and anchor not in headings(linked)
    ]
    assert not broken


@pytest.mark.skipif(not SHARED.is_dir(), reason="no ../shared beside this checkout")
def test_the_contracts_the_docs_name_are_in_shared_with_the_sections_they_quote() -> None:
    named = {
        f"{page.name}: ../shared/{name}": SHARED / name
        for page in PAGES
        for name in re.findall(r"\.\./shared/([\w.]+\.md)", page.read_text())
    }
    assert [where for where, file in named.items() if not file.is_file()] == []
    titles = re.findall(r"^#{1,6} +(.+?) *$", (SHARED / "API.md").read_text(), re.MULTILINE)
    # a section is quoted by its title, or by the title without its closing "(rules ...)"
    sections = set(titles) | {re.sub(r" \(.*\)$", "", title) for title in titles}
    quoted = [
        f'{page.name}: API.md "{section}"'
        for page in PAGES
        for section in re.findall(r'API\.md "([^"]+)"', page.read_text())
        if section not in sections
    ]
    assert quoted == []


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
