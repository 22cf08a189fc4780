"""What the console says of a tournament's format, match lengths and variants: the desk's header
line, and on the round page a table's variant where it is not backgammon (rules T-FMT-8,
T-FMT-10..13, V-MATCH-VARIANT-1, V-CUBE-1, V-TAVLI-MATCH-1; API.md "Formats" and "Matches and
tournaments: variants")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import msgspec

from api.pages.pages import TEXT as PAGE_TEXT
from api.pages.pages import Lang
from api.table.texts import TEXT as TABLE_TEXT
from domain.tournament import KnockoutLengths, Stage, variants_played
from projections.calendar import TournamentRow

TERMS_TEXT: dict[Lang, dict[str, str]] = {
    "de": {
        "format": "Modus",
        "swiss": "Schweizer System, {n} Runden",
        "round_robin": "Jeder gegen jeden",
        "round_robin_2": "Jeder gegen jeden, doppelt (Hin- und Rückrunde)",
        "elimination": "K.-o.-System",
        "seeding_lot": "Setzung nach Los",
        "seeding_ranking": "Setzung nach Rangliste",
        "knockout": "danach K.-o.-Runde der besten {n}",
        "no_knockout": "ohne K.-o.-Runde",
        "consolation_none": "ohne Trostrunde",
        "consolation_first_round": "Trostrunde der Verlierer der ersten Runde",
        "consolation_progressive": "Trostrunde der Verlierer der ersten beiden Runden",
        "consolation_terms": "auf {n} Punkte, {pot} % des Topfs ({split})",
        "match_length": "Matchlänge",
        "points": "{n} Punkte",
        "variant": "Spielart",
        "cube": "Doppelwürfel",
        "cube_on": "mit Doppelwürfel",
        "cube_off": "ohne Doppelwürfel",
        "cube_backgammon_only": "mit Doppelwürfel nur im Backgammon",
        "tavli": "Tavli",
        "tavli_points": "nach Punkten, auf {n} Punkte",
        "tavli_points_knockout": "nach Punkten, auf die Matchlänge der Runde",
        "tavli_best_of_three": "best of three (wer zuerst zwei Spiele gewinnt)",
        "table_best_of_three": "best of three",
        "main": "Hauptfeld",
        "consolation": "Trostrunde",
        "swiss_stage": "Schweizer Runden",
        "round_robin_stage": "Jeder gegen jeden",
    },
    "en": {
        "format": "Format",
        "swiss": "Swiss, {n} rounds",
        "round_robin": "Round robin",
        "round_robin_2": "Double round robin",
        "elimination": "Elimination",
        "seeding_lot": "seeded by lot",
        "seeding_ranking": "seeded by ranking",
        "knockout": "then a knockout of the top {n}",
        "no_knockout": "no knockout",
        "consolation_none": "no consolation",
        "consolation_first_round": "consolation for the first round's losers",
        "consolation_progressive": "consolation for the losers of the first two rounds",
        "consolation_terms": "to {n} points, {pot} % of the pot ({split})",
        "match_length": "Match length",
        "points": "{n} points",
        "variant": "Variant",
        "cube": "Cube",
        "cube_on": "with the doubling cube",
        "cube_off": "no doubling cube",
        "cube_backgammon_only": "doubling cube in backgammon only",
        "tavli": "Tavli",
        "tavli_points": "in points, to {n} points",
        "tavli_points_knockout": "in points, to the round's match length",
        "tavli_best_of_three": "best of three (the first to win two games)",
        "table_best_of_three": "best of three",
        "main": "Main bracket",
        "consolation": "Consolation",
        "swiss_stage": "Swiss rounds",
        "round_robin_stage": "Round robin",
    },
}

FIRST_STAGES = ("swiss", "round_robin", "main")
"""The stages played to the tournament's own ``match_length`` (the knockout stages have theirs,
the consolation its own)."""


@dataclass(frozen=True, slots=True)
class Term:
    """One of the desk's format settings: ``key`` marks it on the page (``data-term``)."""

    key: str
    label: str
    text: str


def tournament_terms(lang: Lang, row: TournamentRow) -> list[Term]:
    """The format, the match lengths stage by stage (the knockout's from the calendar's row,
    rule T-FMT-8), the variants stage by stage, the cube and, where a stage plays tavli, the
    Tavli format: what a director checks before pairing and at each table."""
    words = TERMS_TEXT[lang]
    played = variants_played(row, row.variant, row.stage_variants)
    lengths = _lengths_in_words(lang, row, played, row.knockout_lengths)
    terms = [
        Term("format", words["format"], _format_in_words(words, row)),
        Term("match_length", words["match_length"], lengths),
        Term("variant", words["variant"], _variants_in_words(lang, row, played)),
        Term("cube", words["cube"], _cube_in_words(words, row.cube, set(played.values()))),
    ]
    tavli_stages = [stage for stage, variant in played.items() if variant == "tavli"]
    if tavli_stages:
        if row.tavli_format == "best_of_three":
            tavli = words["tavli_best_of_three"]
        elif any(stage in FIRST_STAGES for stage in tavli_stages):
            tavli = words["tavli_points"].format(n=row.match_length)
        else:
            tavli = words["tavli_points_knockout"]
        terms.append(Term("tavli", words["tavli"], tavli))
    return terms


def table_variant(lang: Lang, row: TournamentRow, stage: str) -> str:
    """rule V-MATCH-VARIANT-1: the variant a table of ``stage`` plays, in words, where it is
    not backgammon (empty for backgammon); a Tavli table says its format."""
    variant = row.stage_variants.get(stage, row.variant)
    if variant == "backgammon":
        return ""
    named = _variant_name(lang, variant)
    if variant == "tavli" and row.tavli_format == "best_of_three":
        return f"{named}, {TERMS_TEXT[lang]['table_best_of_three']}"
    return named


def _format_in_words(words: dict[str, str], row: TournamentRow) -> str:
    if row.format == "elimination":
        consolation = row.consolation_played if row.started_at else row.consolation
        parts = [words["elimination"], words[f"seeding_{row.seeding}"]]
        parts.append(words[f"consolation_{consolation}"])
        if consolation != "none":
            split = "/".join(str(share) for share in row.consolation_payout_percent)
            length = row.consolation_match_length or row.match_length
            parts[-1] += " " + words["consolation_terms"].format(
                n=length, pot=row.consolation_pot_percent, split=split
            )
        return ", ".join(parts)
    if row.format == "round_robin":
        cycles = "round_robin_2" if row.round_robin_cycles == 2 else "round_robin"
        parts = [words[cycles], words[f"seeding_{row.seeding}"]]
    else:
        parts = [words["swiss"].format(n=row.swiss_rounds)]
    if row.knockout_players:
        parts.append(words["knockout"].format(n=row.knockout_players))
    else:
        parts.append(words["no_knockout"])
    return ", ".join(parts)


def _lengths_in_words(
    lang: Lang,
    row: TournamentRow,
    played: Mapping[Stage, str],
    knockout_lengths: KnockoutLengths | None,
) -> str:
    """rule T-FMT-8: the tournament's match length, then each knockout stage it plays to
    another length ("7 Punkte; Finale: 11 Punkte"), in playing order. The consolation's
    length is said with the consolation (``_format_in_words``)."""
    points = TERMS_TEXT[lang]["points"]
    knockout = msgspec.structs.asdict(knockout_lengths) if knockout_lengths else {}
    others = [
        f"{_stage_name(lang, stage)}: {points.format(n=knockout[stage])}"
        for stage in played
        if knockout.get(stage, row.match_length) != row.match_length
    ]
    return "; ".join([points.format(n=row.match_length), *others])


def _variants_in_words(lang: Lang, row: TournamentRow, played: Mapping[Stage, str]) -> str:
    """The tournament's variant, then each stage that plays another one ("Plakoto; Finale:
    Backgammon"), in playing order."""
    others = [
        f"{_stage_name(lang, stage)}: {_variant_name(lang, variant)}"
        for stage, variant in played.items()
        if variant != row.variant
    ]
    return "; ".join([_variant_name(lang, row.variant), *others])


def _cube_in_words(words: dict[str, str], cube: bool | None, variants: set[str]) -> str:
    """rule V-CUBE-1: unset, each match gets its variant's default (on in backgammon only)."""
    if cube is not None:
        return words["cube_on"] if cube else words["cube_off"]
    if variants == {"backgammon"}:
        return words["cube_on"]
    return words["cube_backgammon_only"] if "backgammon" in variants else words["cube_off"]


def _variant_name(lang: Lang, variant: str) -> str:
    return TABLE_TEXT[lang].get(f"variant_{variant}", variant)


def _stage_name(lang: Lang, stage: str) -> str:
    words = TERMS_TEXT[lang]
    if stage in ("swiss", "round_robin"):
        return words[f"{stage}_stage"]
    return words.get(stage) or PAGE_TEXT[lang].get(stage, stage)
