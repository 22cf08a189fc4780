"""The club's rating list through its use cases: ad hoc matches, tournament results, imports,
corrections, settings and erasure, each checked against a recomputation written here apart from
the service's own formula (rules R-RATE-1..8)."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from datetime import UTC, datetime
from uuid import UUID

import pytest

from domain.errors import InvalidInputError
from domain.ratings.club import ImportRow
from domain.tournament import Applicant
from service.bootstrap import Services
from service.clock import MovableClock
from service.rounds.rounds import ReportedResult
from service.shared.day_views import Pairing
from service.shared.match_play import Caller, MatchPlay, MatchTerms
from tests.service.conftest import Day, checked_in_tournament, plan, report_every_table
from tests.service.test_match_results import accept, one_table_to_the_last_command

DIRECTOR = Caller(director=True)


def recomputed(
    matches: Iterable[tuple[str, str, int]], *, start: float = 1800.0, boost: bool = False
) -> dict[str, float]:
    """The FIBS formula written out once more, apart from ``domain.ratings``: winner, loser,
    length in order -> rating by player."""
    rating: dict[str, float] = {}
    experience: dict[str, int] = {}
    for winner, loser, length in matches:
        r_w, r_l = rating.get(winner, start), rating.get(loser, start)
        p = 1 / (1 + 10 ** ((r_w - r_l) * math.sqrt(length) / 2000))
        k_w = max(1.0, 5 - experience.get(winner, 0) / 100) if boost else 1.0
        k_l = max(1.0, 5 - experience.get(loser, 0) / 100) if boost else 1.0
        rating[winner] = r_w + 4 * k_w * math.sqrt(length) * p
        rating[loser] = r_l - 4 * k_l * math.sqrt(length) * p
        for player in (winner, loser):
            experience[player] = experience.get(player, 0) + length
    return rating


def listed(services: Services) -> dict[str, float]:
    return {row.display_name: row.rating for row in services.ratings.list_ratings()}


def by_id(services: Services) -> dict[UUID, float]:
    return {row.player_id: row.rating for row in services.ratings.list_ratings()}


def win_one_point_match(services: Services, match_id: UUID) -> None:
    """Side a starts with 6-5, plays, and side b resigns a single game: a wins."""
    services.matches.roll(match_id, DIRECTOR, (6, 5))
    state = services.matches.get(match_id)
    services.matches.play(
        match_id, DIRECTOR.acting_for("a"), position_id=state.plays()[0].position_id
    )
    services.matches.resign(match_id, DIRECTOR.acting_for("b"), "single")
    services.matches.answer_resignation(match_id, DIRECTOR.acting_for("a"), accept=True)


def test_an_ad_hoc_match_played_to_its_end_is_rated_under_its_named_players(
    services: Services,
) -> None:
    # rules R-RATE-4, R-RATE-7: new names become rating-only players; rated at the match's end
    created = services.matches.create(MatchTerms(player_a="Anna", player_b="Bert", match_length=1))
    assert listed(services) == {}
    win_one_point_match(services, created.match.id)
    assert listed(services) == pytest.approx(recomputed([("Anna", "Bert", 1)]))
    anna = services.ratings.list_ratings()[0]
    line = services.ratings.player_ratings(anna.player_id).matches[0]
    assert (line.source, line.match_id, line.won, line.p) == ("match", created.match.id, True, 0.5)


def test_an_ad_hoc_side_may_name_a_rated_player_by_id(services: Services) -> None:
    first = services.matches.create(MatchTerms(player_a="Anna", player_b="Bert", match_length=1))
    win_one_point_match(services, first.match.id)
    anna = next(r.player_id for r in services.ratings.list_ratings() if r.display_name == "Anna")
    second = services.matches.create(
        MatchTerms(player_a="Bert", player_b=str(anna), match_length=1)
    )
    assert second.match.player_b == "Anna"
    win_one_point_match(services, second.match.id)
    assert [r.matches for r in services.ratings.list_ratings()] == [2, 2]


def test_a_friendly_is_not_rated(services: Services) -> None:
    # rule R-RATE-5: "rated": false
    created = services.matches.create(
        MatchTerms(player_a="Anna", player_b="Bert", match_length=1, rated=False)
    )
    win_one_point_match(services, created.match.id)
    assert listed(services) == {}


def test_an_ad_hoc_match_of_a_player_against_themself_is_refused(services: Services) -> None:
    # rule R-RATE-6: the same name after trimming, or the same player by id and by name
    with pytest.raises(InvalidInputError) as same_name:
        services.matches.create(MatchTerms(player_a="Anna", player_b=" Anna ", match_length=3))
    assert same_name.value.field == "player_b"
    services.ratings.import_results(
        [ImportRow(date="2025-01-01", winner="Anna", loser="Bert", length=1)]
    )
    anna = next(r.player_id for r in services.ratings.list_ratings() if r.display_name == "Anna")
    with pytest.raises(InvalidInputError, match="same player"):
        services.matches.create(MatchTerms(player_a=str(anna), player_b="Anna", match_length=3))


def generated_rows(count: int, seed: int = 23) -> list[tuple[str, str, int]]:
    """Repeats, 1-point matches and newcomers: the pool of names grows as the rows go on."""
    draw = random.Random(seed)
    rows = []
    for index in range(count):
        pool = 2 + index // 25
        winner, loser = draw.sample(range(min(pool, 150)), 2)
        rows.append((f"Spieler {winner}", f"Spieler {loser}", draw.choice((1, 1, 3, 5, 7, 11))))
    return rows


def as_import(rows: Iterable[tuple[str, str, int]]) -> list[ImportRow]:
    return [ImportRow(date="2024-05-01", winner=w, loser=x, length=n) for w, x, n in rows]


def test_an_import_of_thousands_of_rows_equals_an_independent_recomputation(
    services: Services,
) -> None:
    rows = generated_rows(3000)
    receipt = services.ratings.import_results(as_import(rows))
    assert (receipt.matches, receipt.new_players, receipt.matched_players) == (3000, 121, 0)
    assert listed(services) == pytest.approx(recomputed(rows), abs=1e-9)
    ranks = [row.rank for row in services.ratings.list_ratings()]
    assert ranks == sorted(ranks)
    assert ranks[0] == 1


def test_a_bad_row_stores_nothing(services: Services) -> None:
    # rule R-RATE-8: all or nothing
    before = services.store.latest_notification_id()
    rows = [
        ImportRow(date="2025-01-01", winner=f"P{n}", loser=f"Q{n}", length=1) for n in range(50)
    ]
    rows[37] = ImportRow(date="2025-02-30", winner="P37", loser="Q37", length=1)
    with pytest.raises(InvalidInputError) as refused:
        services.ratings.import_results(rows)
    assert refused.value.extensions["errors"] == [
        {"field": "matches[37].date", "message": "2025-02-30 is no day of the calendar"}
    ]
    assert services.store.latest_notification_id() == before
    assert listed(services) == {}


def test_a_correction_of_an_early_result_recomputes_every_later_rating(
    services: Services, clock: MovableClock
) -> None:
    # rule R-RATE-4: the correction takes the original's place; every later rating follows
    day = checked_in_tournament(services, clock, 4)
    first = services.rounds.start(day.tournament_id).round
    report_every_table(services, day, first)
    report_every_table(services, day, services.rounds.pair_round(day.tournament_id))
    played = [
        (str(t.player_a), str(t.player_b), t.result_id, t.match_id)
        for number in (1, 2)
        for t in services.rounds.get_round(day.tournament_id, number).pairings
    ]
    names = {str(r.player_id): r.display_name for r in services.ratings.list_ratings()}
    assert listed(services) == pytest.approx(
        recomputed((names[a], names[b], 1) for a, b, _, _ in played)
    )
    winner, loser, result_id, match_id = played[0]
    assert match_id is not None
    services.rounds.record_result(
        day.tournament_id,
        ReportedResult(
            match_id=match_id, winner=UUID(loser), points_a=0, points_b=1, corrects=result_id
        ),
    )
    corrected = [(loser, winner, 1, None, None)] + [(a, b, 1, r, m) for a, b, r, m in played[1:]]
    after = listed(services)
    assert after == pytest.approx(recomputed((names[a], names[b], 1) for a, b, *_ in corrected))
    assert after != pytest.approx(recomputed((names[a], names[b], 1) for a, b, _, _ in played))
    history = services.ratings.player_ratings(UUID(loser)).matches
    assert (history[0].source, history[0].won) == ("tournament", True)
    services.views.rebuild()
    assert listed(services) == after


def test_a_rebuild_of_the_views_gives_the_same_list(services: Services) -> None:
    rows = generated_rows(300, seed=5)
    services.ratings.import_results(as_import(rows))
    before = services.ratings.list_ratings()
    services.views.rebuild()
    assert services.ratings.list_ratings() == before


def test_a_change_of_the_settings_applies_from_the_next_rated_match_on(
    services: Services,
) -> None:
    # rule R-RATE-3: the boost and the start rating never change earlier matches
    services.ratings.import_results([ImportRow(date="2025-01-01", winner="A", loser="B", length=5)])
    changed = services.ratings.change_rating_settings(start_rating=1500, newcomer_boost=True)
    assert (changed.start_rating, changed.newcomer_boost) == (1500, True)
    assert services.ratings.rating_settings().changed_at is not None
    services.ratings.import_results([ImportRow(date="2025-01-02", winner="C", loser="A", length=3)])
    rows = {row.display_name: row for row in services.ratings.list_ratings()}
    assert rows["B"].rating == pytest.approx(1800 - 2 * math.sqrt(5))  # no boost, start 1800
    c_line = services.ratings.player_ratings(rows["C"].player_id).matches[0]
    assert (c_line.rating_before, c_line.k) == (1500, 5)  # boosted, new start rating
    a_line = services.ratings.player_ratings(rows["A"].player_id).matches[1]
    assert a_line.k == pytest.approx(4.95)


def test_an_erased_rating_only_player_keeps_the_ratings_under_the_pseudonym(
    services: Services,
) -> None:
    # rule R-RATE-7: a rating-only player's name is personal data
    services.ratings.import_results(
        [ImportRow(date="2025-01-01", winner="Anna Zweifel", loser="Bert", length=5)]
    )
    anna = services.ratings.list_ratings()[0]
    pseudonym = services.people.erase(anna.player_id, actor="director")
    after = services.ratings.list_ratings()[0]
    assert (after.display_name, after.rating) == (pseudonym, anna.rating)
    services.views.rebuild()
    assert services.ratings.list_ratings()[0].display_name == pseudonym
    bert = services.ratings.list_ratings()[1].player_id
    assert services.ratings.player_ratings(bert).matches[0].opponent == pseudonym


def test_a_tournament_match_played_through_the_service_is_rated_once_at_its_end(
    services: Services, clock: MovableClock
) -> None:
    # rule R-RATE-4: source "match", not a second time at the tournament's result
    _, match_id = one_table_to_the_last_command(services, clock)
    assert listed(services) == {}
    accept(services, match_id)
    rows = services.ratings.list_ratings()
    assert [row.matches for row in rows] == [1, 1]
    (line,) = services.ratings.player_ratings(rows[0].player_id).matches
    assert (line.source, line.match_id, line.length) == ("match", match_id, 1)
    assert rows[0].rating == pytest.approx(1800 + 4 * 0.5)


def a_result_of_a_table_played_on_paper(
    services: Services, clock: MovableClock, monkeypatch: pytest.MonkeyPatch
) -> tuple[Day, Pairing]:
    """Two players, one 3-point table, and the director's result for it (player a wins 3:1),
    with no match of the service at the table: only the tournament's own record (its round's
    pairing, the result) says who played."""
    monkeypatch.setattr(MatchPlay, "open_tables", lambda *_: [])
    monkeypatch.setattr(MatchPlay, "conclusions", lambda *_: [])
    day = checked_in_tournament(services, clock, 2, match_length=3)
    (table,) = services.rounds.start(day.tournament_id).round.pairings
    assert table.match_id is not None
    assert table.player_b is not None
    services.rounds.record_result(
        day.tournament_id,
        ReportedResult(match_id=table.match_id, winner=table.player_a, points_a=3, points_b=1),
    )
    return day, table


def test_a_tournament_result_is_rated_between_the_players_its_round_paired(
    services: Services, clock: MovableClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # rules R-RATE-1, R-RATE-4: a result recorded by the director is rated at that event,
    # between the two players the round's pairing seated at the table and at its length
    # (the view reads them from the pairing, not from a match the service may not hold)
    _, table = a_result_of_a_table_played_on_paper(services, clock, monkeypatch)
    assert {row.player_id for row in services.ratings.list_ratings()} == {
        table.player_a,
        table.player_b,
    }
    (line,) = services.ratings.player_ratings(table.player_a).matches
    assert (line.source, line.match_id, line.opponent_id, line.length, line.won) == (
        "tournament",
        table.match_id,
        table.player_b,
        3,
        True,
    )


def test_an_ad_hoc_side_naming_a_name_two_players_share_is_refused(services: Services) -> None:
    # rule R-RATE-7: "Anna M." names Anna Maier and Anna Müller alike
    tournament_id = services.tournaments.schedule_tournament(plan()).id
    for last_name in ("Maier", "Müller"):
        services.tournaments.register(
            tournament_id,
            Applicant(
                first_name="Anna", last_name=last_name, email=f"{last_name}@example.org", age=40
            ),
        )
    with pytest.raises(InvalidInputError, match="2 players share the name") as refused:
        services.matches.create(MatchTerms(player_a="Anna M.", player_b="Bert", match_length=3))
    assert refused.value.field == "player_a"


def test_a_match_ended_after_midnight_in_the_club_s_zone_shows_that_day(
    services: Services, clock: MovableClock
) -> None:
    # rules R-RATE-1, R-RATE-4: the day shown is the club's (Europe/Berlin), not UTC's:
    # 23:30 UTC on 1 March is 00:30 on 2 March in Berlin
    clock.advance(14.5 * 3600)
    assert clock.now() == datetime(2026, 3, 1, 23, 30, tzinfo=UTC)
    created = services.matches.create(MatchTerms(player_a="Anna", player_b="Bert", match_length=1))
    win_one_point_match(services, created.match.id)
    anna = services.ratings.list_ratings()[0]
    (line,) = services.ratings.player_ratings(anna.player_id).matches
    assert line.date == "2026-03-02"
    services.views.rebuild()
    assert services.ratings.player_ratings(anna.player_id).matches[0].date == "2026-03-02"
