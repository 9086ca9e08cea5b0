"""host_tools/elo.py: Elo difference and its 95% error bar from a match score."""
import math

import pytest

from host_tools import elo


@pytest.mark.parametrize("score, expected", [
    (0.5, 0.0),
    (0.75, 190.848501887865),   # -400 * log10(1/3)
    (0.25, -190.848501887865),
    (0.64, 99.9510),            # -400 * log10(9/16)
    (0.9, 381.697003775730),    # -400 * log10(1/9)
    (0.99, 798.2541),           # 400 * log10(99)
])
def test_elo_from_score_known_values(score, expected):
    assert elo.elo_from_score(score) == pytest.approx(expected, abs=1e-3)
    assert elo.score_from_elo(expected) == pytest.approx(score, abs=1e-6)


def test_elo_from_score_at_the_ends_is_infinite():
    assert elo.elo_from_score(1.0) == math.inf
    assert elo.elo_from_score(0.0) == -math.inf
    assert str(elo.elo_from_score(0.5)) == "0.0"  # not -0.0


def test_score_fraction():
    assert elo.score_fraction(3, 2, 5) == 0.4
    assert elo.score_fraction(0, 0, 0) is None


def test_error_bar_known_values():
    # 5 wins, 5 losses: per-game variance 1/4, standard error 0.5/sqrt(10);
    # 0.5 + 1.96 * 0.158 = 0.80990 -> +251.78 Elo, symmetric.
    assert elo.elo_error(5, 0, 5) == pytest.approx(251.777, abs=0.01)
    # 6 wins, 2 draws, 2 losses: score 0.7, variance 0.13.
    estimate, low, high = elo.elo_interval(6, 2, 2)
    assert estimate == pytest.approx(147.1907, abs=1e-3)
    assert low == pytest.approx(-33.399, abs=0.01)
    assert high == pytest.approx(504.033, abs=0.01)
    # 60 wins, 30 draws, 10 losses: score 0.75; the interval is lopsided in
    # Elo, the error is half its width (cutechess-cli's figure).
    estimate, low, high = elo.elo_interval(60, 30, 10)
    assert estimate == pytest.approx(190.8485, abs=1e-3)
    assert (low, high) == (pytest.approx(134.357, abs=0.01), pytest.approx(258.447, abs=0.01))
    assert elo.format_elo(60, 30, 10) == "+190.8 +/- 62.0"


def test_error_shrinks_like_one_over_root_n():
    small, large = elo.elo_error(30, 40, 30), elo.elo_error(300, 400, 300)
    assert small == pytest.approx(53.158, abs=0.01)
    assert large == pytest.approx(small / math.sqrt(10), rel=0.01)


def test_perfect_and_zero_scores_give_a_bound_not_a_crash():
    # Clopper-Pearson: 10 straight wins -> true score >= 0.025 ** (1/10) = 0.6915.
    assert elo.elo_interval(10, 0, 0) == (math.inf, pytest.approx(140.217, abs=0.01), math.inf)
    assert elo.format_elo(10, 0, 0) == "> +140.2"
    assert elo.format_elo(0, 0, 10) == "< -140.2"
    assert elo.elo_error(10, 0, 0) == math.inf
    # Two games prove little: the bound is below zero.
    assert elo.format_elo(2, 0, 0) == "> -290.5"


def test_an_interval_that_runs_off_one_end():
    assert elo.format_elo(9, 0, 1) == "+381.7 (+159.0 to +inf)"
    assert elo.format_elo(1, 0, 9) == "-381.7 (-inf to -159.0)"


def test_no_games_and_only_draws():
    assert elo.elo_interval(0, 0, 0) is None
    assert elo.elo_error(0, 0, 0) is None
    assert elo.format_elo(0, 0, 0) == "no games"
    assert elo.format_elo(0, 4, 0) == "+0.0 +/- 0.0"
