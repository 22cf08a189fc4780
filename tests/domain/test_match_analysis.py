"""Reading gnubg's ``show statistics match`` (rule A-ANALYSIS-3), on its own printed output."""

from __future__ import annotations

import pytest

from domain.match_analysis import GnubgOutputError, PlayerFigures, read_statistics

GNUBG_VERSION = "GNU Backgammon 1.07.001 20230103"

SEVEN_POINT_MATCH = """\
Player                                   Anna Maier              Ben

Chequerplay statistics

Total moves                               27                      26
Unforced moves                            13                      26
Unmarked moves                            17                       2
Moves marked doubtful                      0                       4
Moves marked bad                           1                       1
Moves marked very bad                      9                      19
Error total EMG (MWC)                         -2.978 (-32.629%)       -7.486 (-92.386%)
Error rate mEMG (MWC)                       -229.0   ( -2.510%)     -287.9   ( -3.553%)
Chequerplay rating                       Awful!                  Awful!


Luck statistics

Rolls marked very lucky                    0                       0
Rolls marked lucky                         4                       3
Rolls unmarked                            18                      22
Rolls marked unlucky                       4                       1
Rolls marked very unlucky                  1                       0
Luck total EMG (MWC)                          -1.034 (-14.615%)       +1.608 (+19.248%)
Luck rate mEMG (MWC)                         -38.3   ( -0.541%)      +61.8   ( +0.740%)
Luck rating                              Bad dice, man!          Go to Las Vegas


Cube statistics

Total cube decisions                       6                      25
Close or actual cube decisions             4                       8
Doubles                                    1                       3
Takes                                      1                       1
Passes                                     2                       0
Missed doubles below CP (EMG (MWC))        0                       1 (-0.258 ( -4.168%))
Missed doubles above CP (EMG (MWC))        0                       0
Wrong doubles below DP (EMG (MWC))         1 (-0.426 ( -2.669%))   2 (-0.175 ( -1.290%))
Wrong doubles above TG (EMG (MWC))         0                       0
Wrong takes (EMG (MWC))                    0                       0
Wrong passes (EMG (MWC))                   2 (-1.766 (-21.371%))   0
Error total EMG (MWC)                         -2.193 (-24.040%)       -0.433 ( -5.458%)
Error rate mEMG (MWC)                       -548.2   ( -6.010%)      -54.1   ( -0.682%)
Cube decision rating                     Awful!                  Awful!


Overall statistics

Error total EMG (MWC)                         -5.170 (-56.670%)       -7.919 (-97.844%)
Error rate mEMG (MWC)                       -304.1   ( -3.334%)     -232.9   ( -2.878%)
Snowie error rate                            -97.6   ( +0.000%)     -149.4   ( +0.000%)
Overall rating                           Awful!                  Awful!
"""
"""gnubg 1.07.001's statistics of ``tests/api/match_script.py``'s match at 0 ply (``LC_ALL=C``)."""

MONEY_SESSION = """\
Player                                   Anna Maier              Ben
Chequerplay statistics
Unforced moves                            13                      26
Error total EMG (Points)                      -3.107 ( -5.082)        -7.347 (-14.031)
Error rate mEMG (Points)                    -239.0   ( -0.391)      -282.6   ( -0.540)
Cube statistics
Close or actual cube decisions             4                       7
Error total EMG (Points)                      -3.409 ( -3.409)        -1.104 ( -1.104)
Error rate mEMG (Points)                    -852.2   ( -0.852)      -157.8   ( -0.158)
Overall statistics
Error total EMG (Points)                      -6.516 ( -8.491)        -8.451 (-15.136)
Error rate mEMG (Points)                    -383.3   ( -0.499)      -256.1   ( -0.459)
"""
"""The same moves as a money session: gnubg prints points, not match winning chances."""


def test_the_figures_are_read_as_printed_and_made_non_negative() -> None:
    statistics = read_statistics(f"{GNUBG_VERSION}\n\n{SEVEN_POINT_MATCH}")

    assert statistics.engine == "GNU Backgammon 1.07.001"
    assert statistics.a == PlayerFigures(
        unforced_moves=13,
        cube_decisions=4,
        error_total_emg=5.170,
        error_rate_memg=304.1,
        chequer_error_rate_memg=229.0,
        cube_error_rate_memg=548.2,
    )
    assert statistics.b.error_rate_memg == 232.9
    assert statistics.b.pr == pytest.approx(116.45)  # PR-style: half the error rate
    # the error rate is the error total per decision, unforced moves and close cube decisions
    for side in (statistics.a, statistics.b):
        decisions = side.unforced_moves + side.cube_decisions
        assert side.error_rate_memg == pytest.approx(
            1000 * side.error_total_emg / decisions, abs=0.05
        )


def test_a_rate_without_decisions_is_none_not_gnubgs_minus_zero() -> None:
    no_cube = SEVEN_POINT_MATCH.replace(
        "Close or actual cube decisions             4                       8",
        "Close or actual cube decisions             0                       8",
    )
    statistics = read_statistics(no_cube)
    assert statistics.a.cube_error_rate_memg is None
    assert statistics.b.cube_error_rate_memg == 54.1


def test_a_money_session_reads_the_same_lines_in_points() -> None:
    statistics = read_statistics(MONEY_SESSION)
    assert statistics.engine == "GNU Backgammon"  # no version line given
    assert (statistics.a.error_rate_memg, statistics.b.error_total_emg) == (383.3, 8.451)


@pytest.mark.parametrize(
    "output",
    ["", "No game in progress.", SEVEN_POINT_MATCH.split("Overall statistics")[0]],
)
def test_output_without_match_statistics_is_refused(output: str) -> None:
    with pytest.raises(GnubgOutputError):
        read_statistics(output)
