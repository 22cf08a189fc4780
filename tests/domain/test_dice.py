"""Verifiable server dice: the seed commitment and the documented seed-to-rolls function."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from domain.dice import roll_from_seed, seed_commitment, verify_rolls

SEED = bytes(range(32))


def reference_roll(seed: bytes, index: int) -> tuple[int, int]:
    """The function as domain/dice.py documents it, written out independently."""
    stream = b"".join(
        hmac.new(
            seed, b"bgtd-dice-v1" + index.to_bytes(8, "big") + k.to_bytes(4, "big"), "sha256"
        ).digest()
        for k in range(4)
    )
    usable = [byte % 6 + 1 for byte in stream if byte < 252]
    return usable[0], usable[1]


def test_the_commitment_is_the_sha256_of_the_seed() -> None:
    assert seed_commitment(SEED) == hashlib.sha256(SEED).hexdigest()


def test_every_roll_follows_from_the_seed_as_documented() -> None:
    for index in range(500):
        assert roll_from_seed(SEED, index) == reference_roll(SEED, index)


def test_golden_rolls_of_a_fixed_seed_never_change() -> None:
    assert [roll_from_seed(SEED, index) for index in range(6)] == GOLDEN


GOLDEN = [(2, 1), (5, 2), (1, 4), (5, 1), (5, 4), (2, 2)]


def test_rolls_are_dice_and_roughly_uniform() -> None:
    counts = Counter(die for index in range(6000) for die in roll_from_seed(b"uniform", index))

    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(1800 < count < 2200 for count in counts.values())  # 2000 expected each


def test_a_byte_of_252_or_more_is_skipped_so_no_face_is_favoured() -> None:
    for index in range(2000):
        block = hmac.digest(SEED, b"bgtd-dice-v1" + index.to_bytes(8, "big") + bytes(4), "sha256")
        if block[0] >= 252:
            assert roll_from_seed(SEED, index)[0] == next(b % 6 + 1 for b in block if b < 252)
            return
    pytest.fail("no block started with a byte of 252 or more")


def test_a_revealed_seed_verifies_the_recorded_rolls_and_a_wrong_one_does_not() -> None:
    rolls = [(index, roll_from_seed(SEED, index)) for index in range(20)]
    commitment = seed_commitment(SEED)

    assert verify_rolls(SEED, commitment, rolls)
    assert not verify_rolls(b"another seed", commitment, rolls)
    tampered = [*rolls[:-1], (19, (7 - rolls[-1][1][0], rolls[-1][1][1]))]
    assert not verify_rolls(SEED, commitment, tampered)


def test_a_negative_roll_index_is_refused() -> None:
    with pytest.raises(ValueError, match="from 0"):
        roll_from_seed(SEED, -1)
