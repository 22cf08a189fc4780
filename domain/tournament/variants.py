"""The variant a tournament plays, stage by stage (rules V-MATCH-VARIANT-1, V-CUBE-1,
V-TAVLI-MATCH-1; API.md "Matches and tournaments: variants")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, get_args

import msgspec

from domain.errors import InvalidInputError
from domain.match.events import MatchVariant, TavliFormat
from domain.match.start import VARIANTS
from domain.tournament.defaults import Stage

STAGES: tuple[Stage, ...] = get_args(Stage)
KNOCKOUT_STAGES: tuple[Stage, ...] = ("semi_final", "final", "third_place")
TAVLI_FORMATS: tuple[TavliFormat, ...] = get_args(TavliFormat)


class VariantTerms(msgspec.Struct, frozen=True, kw_only=True):
    """The tournament's variant, its cube and the stages that play another variant."""

    variant: MatchVariant = "backgammon"
    cube: bool | None = None
    """rule V-CUBE-1: None gives each match its variant's default (on in backgammon only)."""
    tavli_format: TavliFormat | None = None
    """The Tavli stages' format; None where no stage plays tavli (older events: ``points``)."""
    stage_variants: dict[Stage, MatchVariant] = msgspec.field(default_factory=dict)
    """Only the stages the director named; every other stage plays ``variant``."""

    def of_stage(self, stage: Stage) -> MatchVariant:
        """rule V-MATCH-VARIANT-1: the variant a pairing of ``stage`` plays."""
        return self.stage_variants.get(stage, self.variant)

    def match_options(self, stage: Stage) -> tuple[MatchVariant, bool | None, TavliFormat | None]:
        """A match of ``stage``: its variant, cube and Tavli format, as ``start_match`` takes
        them (the Tavli format only where the stage plays Tavli)."""
        variant = self.of_stage(stage)
        return variant, self.cube, self.tavli_format if variant == "tavli" else None

    def wins_by_games(self, stage: Stage) -> bool:
        """rule V-TAVLI-MATCH-1: a match of ``stage`` is a best-of-three Tavli match, won by
        two games while its score counts game points, so that its winner may hold fewer points
        than the loser and fewer than ``match_length``."""
        return self.match_options(stage)[2] == "best_of_three"


class FormatShape(Protocol):
    """What decides a format's stages: the format's terms as scheduled, or a tournament's row
    as the calendar keeps it."""

    @property
    def format(self) -> str: ...
    @property
    def knockout_players(self) -> int: ...
    @property
    def consolation(self) -> str: ...


def stages_played(terms: FormatShape) -> tuple[Stage, ...]:
    """The pairing stages a format can play (rules T-FMT-4, T-FMT-10..13), whatever the size
    of the field: a small field may skip some of them (an elimination of 4 plays no ``main``)."""
    knockout = KNOCKOUT_STAGES if terms.knockout_players else ()
    if terms.format == "swiss":
        return ("swiss", *knockout)
    if terms.format == "round_robin":
        return ("round_robin", *knockout)
    consolation: tuple[Stage, ...] = ("consolation",) if terms.consolation != "none" else ()
    return ("main", *KNOCKOUT_STAGES, *consolation)


def variants_played(
    terms: FormatShape, variant: str, stage_variants: Mapping[str, str]
) -> dict[Stage, str]:
    """rule V-MATCH-VARIANT-1: the variant of each stage the format plays, in playing order
    (a stage not named in ``stage_variants`` plays ``variant``)."""
    return {stage: stage_variants.get(stage, variant) for stage in stages_played(terms)}


def variant_terms(
    terms: FormatShape,
    *,
    variant: str,
    cube: bool | None,
    tavli_format: str | None,
    stage_variants: Mapping[str, str] | None,
) -> VariantTerms:
    """API.md "Matches and tournaments: variants": the variant of every stage, checked at
    creation so that no pairing can later fail to start its match. ``None``: not given."""
    chosen = _variant("variant", variant)
    played = stages_played(terms)
    named: dict[Stage, MatchVariant] = {}
    for key, value in (stage_variants or {}).items():
        field = f"stage_variants.{key}"
        stage = next((stage for stage in STAGES if stage == key), None)
        if stage is None:
            raise InvalidInputError(field, f"is not a pairing stage: {', '.join(STAGES)}")
        if stage not in played:
            raise InvalidInputError(
                field,
                f"this {terms.format.replace('_', ' ')} tournament never plays a {stage} stage "
                f"(it plays {', '.join(played)})",
            )
        named[stage] = _variant(field, value)
    variants = {named.get(stage, chosen) for stage in played}
    if cube is False and "backgammon" in variants:
        raise InvalidInputError(
            "cube",
            "a backgammon stage is played with the doubling cube (G-CUBE-1): "
            "leave cube unset to give each match its variant's default",
        )
    format_asked = None
    if tavli_format is not None:
        format_asked = next((value for value in TAVLI_FORMATS if value == tavli_format), None)
        if format_asked is None:
            raise InvalidInputError("tavli_format", "is 'points' or 'best_of_three'")
        if "tavli" not in variants:
            raise InvalidInputError("tavli_format", "applies only where a stage plays tavli")
    elif "tavli" in variants:
        format_asked = "points"  # rule V-TAVLI-MATCH-1: the default format
    return VariantTerms(variant=chosen, cube=cube, tavli_format=format_asked, stage_variants=named)


def _variant(field: str, value: str) -> MatchVariant:
    """rule V-MATCH-VARIANT-1: one of the match variants (``tavli`` is the Tavli cycle)."""
    for known in VARIANTS:
        if known == value:
            return known
    raise InvalidInputError(field, f"is one of {', '.join(VARIANTS)}")
