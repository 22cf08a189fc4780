"""What the bracket page draws: the knockout after the Swiss or round robin stage (rule T-FMT-4),
or an elimination's main and consolation brackets round by round, with seeds, byes and results
(rules T-FMT-12..14; API.md "Formats": "The bracket page draws the main and consolation
brackets"). The director's round page draws the same (templates/bracket_drawing.html)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from uuid import UUID

from service.bootstrap import Services
from service.registration.tournaments import TournamentView
from service.rounds.rounds import TournamentMatch
from service.shared.day_views import Pairing, Round

KNOCKOUT_STAGES = ("semi_final", "final", "third_place")


@dataclass(frozen=True, slots=True)
class Side:
    """One player's line in a drawn match."""

    name: str
    seed: int | None
    """The bracket seed (elimination); None in the knockout after a Swiss or round robin."""
    score: int
    won: bool


@dataclass(frozen=True, slots=True)
class DrawnMatch:
    stage: str
    table: int
    match_id: UUID | None
    """None for a bye."""
    a: Side
    b: Side | None
    """None: ``a`` advances with a bye (no win, no points, rule R-BYE-1)."""
    decided: bool


@dataclass(frozen=True, slots=True)
class Column:
    """One round of a bracket: ``heading`` names a text (``round``: "Round n")."""

    bracket_round: int
    heading: str
    matches: list[DrawnMatch]
    third_place: DrawnMatch | None = None


@dataclass(frozen=True, slots=True)
class Brackets:
    """An elimination as drawn: its main bracket and its consolation (empty when none is
    played, rule T-FMT-13)."""

    main: list[Column]
    consolation: list[Column]


@dataclass(frozen=True, slots=True)
class Drawing:
    """What a page draws of a tournament's knockout: an elimination's ``brackets``, or the
    ``stages`` of the knockout after a Swiss or round robin stage (empty in an elimination)."""

    brackets: Brackets | None
    stages: dict[str, list[DrawnMatch]]


def drawing(services: Services, tournament: TournamentView) -> Drawing:
    """The knockout of ``tournament`` as paired so far, for the public bracket page and the
    director's round page alike."""
    rounds = services.rounds.list_rounds(tournament.id)
    matches = {m.match_id: m for m in services.rounds.list_matches(tournament.id)}
    if tournament.row.format == "elimination":
        played = tournament.row.consolation_played
        return Drawing(brackets=elimination_brackets(rounds, matches, played), stages={})
    return Drawing(brackets=None, stages=knockout_stages(rounds, matches))


def knockout_stages(
    rounds: Sequence[Round], matches: Mapping[UUID, TournamentMatch]
) -> dict[str, list[DrawnMatch]]:
    """The knockout after the Swiss or round robin stage, by stage (rule T-FMT-4)."""
    drawn = [
        _drawn(pairing, matches, seeded=False)
        for paired in rounds
        for pairing in paired.pairings
        if pairing.stage in KNOCKOUT_STAGES
    ]
    return {stage: [m for m in drawn if m.stage == stage] for stage in KNOCKOUT_STAGES}


def elimination_brackets(
    rounds: Sequence[Round], matches: Mapping[UUID, TournamentMatch], consolation: str
) -> Brackets:
    """rule T-FMT-12, T-FMT-13: each bracket's rounds as paired so far, every match (byes
    included) at its position in the bracket; ``consolation`` is the one played."""
    columns: dict[tuple[str, int], list[Pairing]] = {}
    for paired in rounds:
        for pairing in paired.pairings:
            if pairing.bracket is None or pairing.bracket_round is None:
                continue
            columns.setdefault((pairing.bracket, pairing.bracket_round), []).append(pairing)
    # log2(B): main round 1 seats every slot, B/2 tables with the byes (rule T-FMT-12); the
    # consolation has log2(B) - 1 rounds, a progressive one log2(B) (rule T-FMT-13)
    main_rounds = (2 * len(columns.get(("main", 1), []))).bit_length() - 1
    side_rounds = main_rounds if consolation == "progressive" else main_rounds - 1
    drawn: dict[str, list[Column]] = {"main": [], "consolation": []}
    for (bracket, number), pairings in sorted(columns.items()):
        ordered = sorted(
            pairings, key=lambda p: (p.stage == "third_place", p.bracket_position or 0)
        )
        main = [_drawn(p, matches, seeded=True) for p in ordered if p.stage != "third_place"]
        third = [_drawn(p, matches, seeded=True) for p in ordered if p.stage == "third_place"]
        if bracket == "main":
            heading = "round" if not main or main[0].stage == "main" else main[0].stage
        else:
            heading = "final" if number == side_rounds else "round"
        drawn[bracket].append(
            Column(
                bracket_round=number,
                heading=heading,
                matches=main,
                third_place=third[0] if third else None,
            )
        )
    return Brackets(main=drawn["main"], consolation=drawn["consolation"])


def _drawn(
    pairing: Pairing, matches: Mapping[UUID, TournamentMatch], *, seeded: bool
) -> DrawnMatch:
    found = matches.get(pairing.match_id) if pairing.match_id is not None else None
    winner = found.winner if found is not None else None
    a = Side(
        name=pairing.player_a_name,
        seed=pairing.seed_a if seeded else None,
        score=found.score.a if found is not None else 0,
        won=winner is not None and winner == pairing.player_a,
    )
    if pairing.player_b is None:
        return DrawnMatch(
            stage=pairing.stage, table=pairing.table, match_id=None, a=a, b=None, decided=True
        )
    b = Side(
        name=pairing.player_b_name or "",
        seed=pairing.seed_b if seeded else None,
        score=found.score.b if found is not None else 0,
        won=winner == pairing.player_b,
    )
    return DrawnMatch(
        stage=pairing.stage,
        table=pairing.table,
        match_id=pairing.match_id,
        a=a,
        b=b,
        decided=winner is not None,
    )
