"""Verifiable server dice: every roll of a match is a pure function of a secret seed (G-DICE-1).

The service draws a 32-byte seed with ``secrets`` when a match starts and publishes only
``seed_commitment(seed)``, the SHA-256 of the seed. When the match ends the seed is revealed and
anyone can recompute every roll with ``roll_from_seed`` and compare it to the recorded events.

The function, so that it can be reimplemented anywhere::

    block(seed, index, k) = HMAC-SHA256(key=seed, msg="bgtd-dice-v1" || u64be(index) || u32be(k))
    dice(seed, index)     = the first two bytes b < 252 of block(seed, index, 0) || block(..., 1)
                            || ..., each mapped to b % 6 + 1

Bytes 252..255 are skipped (rejection sampling), so each die is exactly uniform on 1..6: 252 is
the largest multiple of 6 not above 256. ``index`` counts the server rolls of the match from 0;
an opening roll (one die each, G-OPEN-1) uses one index, first die for side a, second for b.
"""

from __future__ import annotations

import hashlib
import hmac

SEED_BYTES = 32
_DOMAIN = b"bgtd-dice-v1"
_LIMIT = 252  # the largest multiple of 6 that fits in a byte: no modulo bias


def seed_commitment(seed: bytes) -> str:
    """The published commitment to a seed: SHA-256, lower-case hex."""
    return hashlib.sha256(seed).hexdigest()


def roll_from_seed(seed: bytes, index: int) -> tuple[int, int]:
    """The two dice of server roll number ``index`` (0-based) of the match seeded by ``seed``."""
    if index < 0:
        raise ValueError("a roll index counts from 0")
    dice: list[int] = []
    block = 0
    while len(dice) < 2:
        message = _DOMAIN + index.to_bytes(8, "big") + block.to_bytes(4, "big")
        for byte in hmac.digest(seed, message, "sha256"):
            if byte < _LIMIT:
                dice.append(byte % 6 + 1)
                if len(dice) == 2:
                    break
        block += 1
    return dice[0], dice[1]


def verify_rolls(seed: bytes, commitment: str, rolls: list[tuple[int, tuple[int, int]]]) -> bool:
    """True if ``seed`` matches ``commitment`` and produces every ``(index, dice)`` recorded."""
    if not hmac.compare_digest(seed_commitment(seed), commitment):
        return False
    return all(roll_from_seed(seed, index) == tuple(dice) for index, dice in rolls)
