"""The public bracket page per format: an elimination's main and consolation brackets with
seeds, byes and results; the knockout after a Swiss or round robin stage; and no Swiss wording
where no Swiss rounds are played (rules T-FMT-4, T-FMT-10..14, P-PUB-1)."""

from __future__ import annotations

import re
from typing import Any

from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_pages import page
from tests.api.test_tournament_day import Day, report, start_tournament
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def play_to_the_end(client: Client, day: Day) -> None:
    """Every match of every round reported (a stable lot decides), each next round paired."""
    while True:
        for pairing in day.rounds[-1]["pairings"]:
            if pairing["match_id"] is not None:
                report(client, day, pairing)
        if client.get(day.url("")).json()["status"] == "completed":
            return
        response = client.post(day.url("/rounds"), headers=DIRECTOR)
        assert response.status_code == 201, response.text
        day.rounds.append(response.json())


def part(html: str, element_id: str) -> str:
    """A bracket of the page (``main-bracket``, ``consolation-bracket``): its rounds' columns."""
    start = html.index(f'id="{element_id}"')
    return html[start : html.index("</div>\n</section>\n</div>", start)]


def drawn_matches(html: str) -> list[str]:
    """Each drawn match's text: seeds, names and scores, tags and spaces dropped."""
    blocks = re.findall(r'<div class="match [^"]*"[^>]*>(.*?)\n</div>', html, flags=re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", block).split()) for block in blocks]


def test_an_elimination_draws_both_brackets_with_seeds_byes_and_results(
    client: Client, clock: MovableClock
) -> None:
    # rules T-FMT-12, T-FMT-13: 10 players, B = 16, seeds 1..6 have byes; a progressive
    # consolation for the losers of main rounds 1 and 2
    day = start_tournament(client, clock, 10, format="elimination", consolation="progressive")
    html = page(client, f"/pages/tournaments/{day.id}/bracket?lang=en")
    main = part(html, "main-bracket")
    assert "consolation-bracket" not in html
    first = drawn_matches(main)
    assert len(first) == 8  # B/2 matches, the byes at their places in the bracket
    byes = [text for text in first if text.endswith(" bye")]
    assert sorted(int(text.split()[0]) for text in byes) == [1, 2, 3, 4, 5, 6]
    assert first[0].startswith("1 ")
    assert first[0].endswith(" bye")
    play_to_the_end(client, day)

    html = page(client, f"/pages/tournaments/{day.id}/bracket?lang=en")
    main, consolation = part(html, "main-bracket"), part(html, "consolation-bracket")
    decided = {
        (p["bracket"], p["player_a_name"], p["player_b_name"]): p
        for paired in day.rounds
        for p in paired["pairings"]
        if p["match_id"] is not None
    }
    results = {m["match_id"]: m for m in client.get(day.url("/matches")).json()}
    for (bracket, name_a, name_b), pairing in decided.items():
        score = results[pairing["match_id"]]["score"]
        seen = (
            f"{pairing['seed_a']} {name_a} {score['a']} {pairing['seed_b']} {name_b} {score['b']}"
        )
        assert seen in drawn_matches(main if bracket == "main" else consolation), seen
    for name in (p["player_a_name"] for r in day.rounds for p in r["pairings"]):
        assert name in main
    # the rounds' headings: Round 1, Round 2, Semi-final, Final with the match for 3rd place;
    # the consolation's four rounds end with its final (played alone in the last round)
    headings = re.findall(r"<h3>(.*?)</h3>", main)
    assert headings == ["Round 1", "Round 2", "Semi-final", "Final", "Third place"]
    assert re.findall(r"<h3>(.*?)</h3>", consolation) == ["Round 1", "Round 2", "Round 3", "Final"]
    side = [p for p in client.get(day.url("/places")).json() if p["consolation_place"]]
    champion = next(p["display_name"] for p in side if p["consolation_place"] == 1)
    assert re.search(
        rf'class="a winner">.*?{re.escape(champion)}|class="b winner">.*?{re.escape(champion)}',
        consolation.rsplit("<h3>", 1)[1],
    )


def test_an_elimination_without_a_consolation_says_so(client: Client, clock: MovableClock) -> None:
    # rule T-FMT-13: with B <= 4 no consolation is played
    day = start_tournament(client, clock, 4, format="elimination")
    html = page(client, f"/pages/tournaments/{day.id}/bracket")
    assert "Eine Trostrunde wird nicht gespielt." in html
    assert "Hauptrunde" in html
    assert 'id="consolation-bracket"' not in html


SWISS_WORDING = re.compile(r"swiss|schweizer", re.IGNORECASE)


def public_pages(day: Day) -> list[str]:
    base = f"/pages/tournaments/{day.id}"
    return [
        base,
        f"{base}/standings",
        f"{base}/bracket",
        f"{base}/wallboard",
        f"{base}/print/standings",
        f"{base}/print/pairings",
        f"{base}/print/slips",
    ]


def assert_no_swiss_wording(client: Client, day: Day) -> None:
    for path in public_pages(day):
        for lang in ("de", "en"):
            html = page(client, f"{path}?lang={lang}")
            found = SWISS_WORDING.search(re.sub(r"<script.*?</script>", "", html, flags=re.S))
            assert found is None, (path, lang, html[found.start() - 80 : found.end() + 80])


def test_a_round_robin_never_speaks_of_swiss_rounds(client: Client, clock: MovableClock) -> None:
    # rule T-FMT-10: a round robin has no Swiss rounds, and its pages do not mention any
    day = start_tournament(client, clock, 5, format="round_robin", knockout_players=4)
    assert "wenn jeder gegen jeden gespielt hat" in page(
        client, f"/pages/tournaments/{day.id}/bracket"
    )
    assert_no_swiss_wording(client, day)
    play_to_the_end(client, day)
    assert_no_swiss_wording(client, day)


def test_a_round_robin_without_a_knockout_says_it_has_none(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 3, format="round_robin")
    html = page(client, f"/pages/tournaments/{day.id}/bracket?lang=en")
    assert "This tournament has no knockout." in html
    assert SWISS_WORDING.search(html) is None


def test_an_elimination_never_speaks_of_swiss_rounds(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 9, format="elimination")
    assert_no_swiss_wording(client, day)
    play_to_the_end(client, day)
    assert_no_swiss_wording(client, day)
