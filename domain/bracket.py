"""The elimination format's brackets by seed numbers, pure numbers (rules T-FMT-12..14).

The players hold seeds 1..N. The main bracket has B slots, the smallest power of two >= N,
filled in the standard order (rule T-FMT-12), so the byes go to seeds 1..B-N and the top seeds
meet only late. Main round r is played in tournament round r; its last round holds the final
and, after two semi-finals, the match for 3rd place.

The consolation (rule T-FMT-13) takes the losers of main round 1 (``first_round``), or of main
rounds 1 and 2 (``progressive``), and is played in the same tournament rounds: consolation round
c in tournament round c + 1.

Every round is computed from the matches of the rounds before it and their winners, so pairing
a round again gives the same tables. A match is named by its ``bracket``, ``bracket_round`` and
``position`` (1-based within its bracket round); a bye (``seed_b`` None) is won by ``seed_a``
without a result. Two empty slots make an empty match, which is not listed: its position stays
empty in the next round.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Literal

import msgspec

from domain.errors import InvalidInputError

Bracket = Literal["main", "consolation"]
Consolation = Literal["none", "first_round", "progressive"]
BracketStage = Literal["main", "semi_final", "final", "third_place", "consolation"]
CONSOLATIONS: tuple[Consolation, ...] = ("none", "first_round", "progressive")
MIN_ELIMINATION_PLAYERS = 2
MIN_PROGRESSIVE_PLAYERS = 9
"""rule T-FMT-13: a progressive consolation needs B >= 16, i.e. at least 9 players."""

MatchKey = tuple[Bracket, int, int]
"""(bracket, bracket_round, position): names one match of a bracket."""


class BracketMatch(msgspec.Struct, frozen=True, kw_only=True):
    """One table of an elimination round by seeds; ``seed_b`` None: ``seed_a`` has a bye.

    ``stage`` is ``main`` (a main round before the semi-finals), ``semi_final``, ``final``,
    ``third_place`` or ``consolation`` (API.md "Formats")."""

    bracket: Bracket
    bracket_round: int
    position: int
    stage: BracketStage
    seed_a: int
    seed_b: int | None

    @property
    def key(self) -> MatchKey:
        return (self.bracket, self.bracket_round, self.position)

    @property
    def is_bye(self) -> bool:
        return self.seed_b is None


class BracketPlace(msgspec.Struct, frozen=True, kw_only=True):
    """rule T-FMT-14: a seed's place 1..N and its consolation place (1, 2 or None)."""

    place: int
    seed: int
    consolation_place: int | None


def bracket_size(players: int) -> int:
    """rule T-FMT-12: B, the smallest power of two >= N."""
    if players < MIN_ELIMINATION_PLAYERS:
        raise InvalidInputError("players", "an elimination needs at least 2 players")
    size = 2
    while size < players:
        size *= 2
    return size


def main_rounds(players: int) -> int:
    """log2(B): the number of main rounds; the last holds the final."""
    return bracket_size(players).bit_length() - 1


def standard_order(size: int) -> tuple[int, ...]:
    """rule T-FMT-12: O(2) = [1, 2]; O(2s) lists, for each x of O(s), x then 2s + 1 - x."""
    if size < 2 or size & (size - 1):
        raise InvalidInputError("size", f"a bracket size is a power of two >= 2, not {size}")
    order: tuple[int, ...] = (1, 2)
    while len(order) < size:
        double = 2 * len(order)
        order = tuple(seed for x in order for seed in (x, double + 1 - x))
    return order


def consolation_played(players: int, consolation: Consolation) -> Consolation:
    """rule T-FMT-13: the consolation the tournament plays with ``players`` at the start.

    A progressive consolation with fewer than 9 players is played as ``first_round``; a
    first-round consolation needs B >= 8 and at least two entrants (N - B/2 >= 2)."""
    if consolation not in CONSOLATIONS:
        raise InvalidInputError("consolation", f"is one of {', '.join(CONSOLATIONS)}")
    size = bracket_size(players)
    if consolation == "progressive" and players >= MIN_PROGRESSIVE_PLAYERS:
        return "progressive"
    if consolation != "none" and size >= 8 and players - size // 2 >= 2:
        return "first_round"
    return "none"


def tournament_rounds(players: int, consolation: Consolation) -> int:
    """How many tournament rounds the elimination has (``consolation`` as played): log2(B),
    or log2(B) + 1 with a progressive consolation, whose final is the last round alone."""
    return main_rounds(players) + (1 if consolation == "progressive" else 0)


def first_round(players: int) -> tuple[BracketMatch, ...]:
    """rule T-FMT-12: main round-1 match k seats O(B)[2k-1] against O(B)[2k]; a seed above N is
    an empty slot and gives its opponent a bye."""
    size = bracket_size(players)
    order = standard_order(size)
    stage = _main_stage(1, main_rounds(players))
    matches = []
    for k in range(1, size // 2 + 1):
        a, b = order[2 * k - 2], order[2 * k - 1]
        matches.append(
            BracketMatch(
                bracket="main",
                bracket_round=1,
                position=k,
                stage=stage,
                seed_a=a,
                seed_b=b if b <= players else None,
            )
        )
    return tuple(matches)


def next_round(
    players: int,
    consolation: Consolation,
    played: Sequence[BracketMatch],
    winners: Mapping[MatchKey, int],
    withdrawn: Collection[int] = (),
) -> tuple[BracketMatch, ...]:
    """The matches of the tournament round after ``played`` (every match of the earlier
    tournament rounds), from their ``winners`` (byes need none). Empty when the elimination is
    over. ``consolation`` is the one played; ``withdrawn`` seeds leave an empty consolation slot
    (rule T-FMT-13). Raises when a played match has no winner yet."""
    matches = {match.key: match for match in played}
    for match in played:
        if not match.is_bye and match.key not in winners:
            raise InvalidInputError(
                "winners", f"the {match.bracket} match {match.key} has no winner"
            )
    done = max((_tournament_round(m) for m in played), default=0)
    if done == 0:
        return first_round(players)
    last = main_rounds(players)
    result: list[BracketMatch] = []
    if done < last:
        result.extend(_next_main(players, done + 1, matches, winners))
    if consolation != "none" and done + 1 <= tournament_rounds(players, consolation):
        result.extend(_next_consolation(players, consolation, done, matches, winners, withdrawn))
    return tuple(result)


def _next_main(
    players: int,
    main_round: int,
    matches: Mapping[MatchKey, BracketMatch],
    winners: Mapping[MatchKey, int],
) -> list[BracketMatch]:
    """rule T-FMT-12: main round r+1's match k: winner of 2k-1 against winner of 2k; the last
    round adds the match for 3rd place between the semi-final losers (N >= 4)."""
    last = main_rounds(players)
    size = bracket_size(players)
    stage = _main_stage(main_round, last)
    result = []
    for k in range(1, (size >> main_round) + 1):
        a = _winner(("main", main_round - 1, 2 * k - 1), matches, winners)
        b = _winner(("main", main_round - 1, 2 * k), matches, winners)
        if a is None or b is None:  # pragma: no cover - main rounds after 1 are always full
            raise InvalidInputError("winners", "a main match lost both its players")
        result.append(
            BracketMatch(
                bracket="main",
                bracket_round=main_round,
                position=k,
                stage=stage,
                seed_a=a,
                seed_b=b,
            )
        )
    if main_round == last and players >= 4:
        semis = [matches[("main", last - 1, k)] for k in (1, 2)]
        losers = [_loser(m, winners) for m in semis]
        result.append(
            BracketMatch(
                bracket="main",
                bracket_round=main_round,
                position=2,
                stage="third_place",
                seed_a=_present(losers[0]),
                seed_b=_present(losers[1]),
            )
        )
    return result


def _next_consolation(
    players: int,
    consolation: Consolation,
    done: int,
    matches: Mapping[MatchKey, BracketMatch],
    winners: Mapping[MatchKey, int],
    withdrawn: Collection[int],
) -> list[BracketMatch]:
    """rule T-FMT-13: consolation round c = done, in tournament round c + 1."""
    size = bracket_size(players)
    c = done

    def entrant(seed: int | None) -> int | None:
        return None if seed is None or seed in withdrawn else seed

    if c == 1:
        # slot k: the loser of main round-1 match k, empty where it was a bye
        slots = [entrant(_loser(matches[("main", 1, k)], winners)) for k in range(1, size // 2 + 1)]
    elif c == 2 and consolation == "progressive":
        quarter = size // 4
        slots = []
        for j in range(1, quarter + 1):
            slots.append(_winner(("consolation", 1, j), matches, winners))
            slots.append(entrant(_loser(matches[("main", 2, quarter + 1 - j)], winners)))
    else:
        count = _consolation_matches(size, consolation, c - 1)
        slots = [_winner(("consolation", c - 1, p), matches, winners) for p in range(1, count + 1)]
    result = []
    for j in range(1, len(slots) // 2 + 1):
        a, b = slots[2 * j - 2], slots[2 * j - 1]
        if a is None and b is None:
            continue
        first, second = (a, b) if a is not None else (b, None)
        result.append(
            BracketMatch(
                bracket="consolation",
                bracket_round=c,
                position=j,
                stage="consolation",
                seed_a=_present(first),
                seed_b=second,
            )
        )
    return result


def _consolation_matches(size: int, consolation: Consolation, c: int) -> int:
    """The positions of consolation round c: B/4 in round 1 (and round 2 of a progressive
    consolation), halving after that."""
    if consolation == "progressive":
        return size // 4 if c <= 2 else size >> c
    return size >> (c + 1)


class PlacingMatch(msgspec.Struct, frozen=True, kw_only=True):
    """One bracket table as the places read it (rule T-FMT-14): who sat, who won, and the
    points the loser scored. Players are numbered 1..N; any numbering does, seeds included."""

    bracket: Bracket
    bracket_round: int
    stage: BracketStage
    seed_a: int
    seed_b: int | None = None
    """None: a bye for ``seed_a``, decided without a result."""
    winner: int | None = None
    """None while the match is open."""
    loser_points: int = 0

    @property
    def decided(self) -> bool:
        return self.seed_b is None or self.winner is not None

    @property
    def loser(self) -> int | None:
        if self.seed_b is None or self.winner is None:
            return None
        return self.seed_b if self.winner == self.seed_a else self.seed_a


def places(
    players: int, matches: Sequence[PlacingMatch], lot: Sequence[int]
) -> tuple[BracketPlace, ...]:
    """rule T-FMT-14: every player's place 1..N, the one computation of an elimination's places
    (the aggregate's decisions, the standings, the places and prizes, the season ranking).

    1-2 from the final, 3-4 from the match for 3rd place (with N = 3, place 3 is the round-1
    loser). The others by the main round they lost in (later first); among them the
    consolation winner, its finalist, the rest by the consolation round they lost in (later
    first), then those who did not play the consolation; then the points they scored in their
    main loss (more first), then ``lot`` (the numbers in lot order).

    Before the brackets are decided the places are provisional (API.md "Formats"): the final's
    players once decided, then players still in the main bracket, by the main round they
    reached (later first), then the 3rd-place match's players once decided, then the losers
    as above. The consolation
    places are given once the consolation final is decided: the only match of the last
    consolation round, decided with the main final and every other table."""
    lost_main: dict[int, int] = {}
    lost_consolation: dict[int, int] = {}
    loss_points: dict[int, int] = {}
    reached: dict[int, int] = {}
    entered: set[int] = set()
    final_pair: list[int] = []
    third_pair: list[int] = []
    last_consolation = max(
        (m.bracket_round for m in matches if m.bracket == "consolation"), default=0
    )
    for match in matches:
        seated = [s for s in (match.seed_a, match.seed_b) if s is not None]
        if match.bracket == "consolation":
            entered.update(seated)
        elif match.stage != "third_place":
            for seed in seated:
                reached[seed] = max(reached.get(seed, 0), match.bracket_round)
        loser = match.loser
        if loser is None or match.winner is None:
            continue
        if match.stage == "final":
            final_pair = [match.winner, loser]
        elif match.stage == "third_place":
            third_pair = [match.winner, loser]
        elif match.bracket == "consolation":
            lost_consolation[loser] = match.bracket_round
        else:
            lost_main[loser] = match.bracket_round
            loss_points[loser] = match.loser_points
    consolation_places: dict[int, int] = {}
    side_final = [
        m for m in matches if m.bracket == "consolation" and m.bracket_round == last_consolation
    ]
    main_final = any(m.stage == "final" and m.decided for m in matches)
    if len(side_final) == 1 and main_final and all(m.decided for m in matches):
        champion = side_final[0].winner
        consolation_places[side_final[0].seed_a if champion is None else champion] = 1
        if (runner_up := side_final[0].loser) is not None:
            consolation_places[runner_up] = 2
    lot_index = {seed: index for index, seed in enumerate(lot)}

    def key(seed: int) -> tuple[int, int, int, int, int, int]:
        if seed in consolation_places:
            standing = (consolation_places[seed] - 1, 0)
        elif seed in entered:
            standing = (2, -lost_consolation.get(seed, 0))
        else:
            standing = (3, 0)
        out = seed in lost_main
        return (
            int(out),
            -reached.get(seed, 0),
            *standing,
            -loss_points.get(seed, 0),
            lot_index.get(seed, len(lot) + seed),
        )

    # the 3rd-place pair follows whoever is still in the main bracket: a final still played
    # keeps its two players above the 3rd-place match that ended first
    top = final_pair + third_pair
    rest = sorted((s for s in range(1, players + 1) if s not in top), key=key)
    still_in = [seed for seed in rest if seed not in lost_main]
    order = final_pair + still_in + third_pair + [seed for seed in rest if seed in lost_main]
    if sorted(order) != list(range(1, players + 1)):  # pragma: no cover - a broken bracket
        raise InvalidInputError("winners", "the brackets do not place every seed once")
    return tuple(
        BracketPlace(place=place, seed=seed, consolation_place=consolation_places.get(seed))
        for place, seed in enumerate(order, start=1)
    )


def pot_split(
    pot_cents: int, consolation: Consolation, consolation_pot_percent: int
) -> tuple[int, int]:
    """rule T-FMT-14: (main pot, consolation pot). With a consolation played, the consolation
    pot is floor(pot x percent / 100) and the main pot the rest; otherwise all is main."""
    if not 0 <= consolation_pot_percent <= 50:
        raise InvalidInputError("consolation_pot_percent", "is 0..50")
    if consolation == "none":
        return pot_cents, 0
    side = pot_cents * consolation_pot_percent // 100
    return pot_cents - side, side


def _tournament_round(match: BracketMatch) -> int:
    return match.bracket_round + (1 if match.bracket == "consolation" else 0)


def _main_stage(main_round: int, last: int) -> BracketStage:
    if main_round == last:
        return "final"
    if main_round == last - 1:
        return "semi_final"
    return "main"


def _winner(
    key: MatchKey, matches: Mapping[MatchKey, BracketMatch], winners: Mapping[MatchKey, int]
) -> int | None:
    """The winner of a match, its lone player for a bye, None for an empty (unlisted) match."""
    match = matches.get(key)
    if match is None:
        return None
    if match.is_bye:
        return match.seed_a
    return winners[key]


def _loser(match: BracketMatch, winners: Mapping[MatchKey, int]) -> int | None:
    if match.seed_b is None:
        return None
    return match.seed_b if winners[match.key] == match.seed_a else match.seed_a


def _present(seed: int | None) -> int:
    if seed is None:  # pragma: no cover - guarded by the callers
        raise InvalidInputError("seed", "an empty slot where a player was due")
    return seed
