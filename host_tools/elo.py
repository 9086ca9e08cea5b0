"""Elo difference from a match score, with a 95% error bar.

The logistic Elo model says a player who scores the fraction s against an
opponent is stronger by

    elo = -400 * log10(1/s - 1)

points. The error bar comes from the spread of the single game scores
(1, 1/2 or 0): the standard error of the mean score, 1.96 of them either way
(95%), mapped through the same curve, half the width of that interval. This
is the figure cutechess-cli prints.

    >>> round(elo_from_score(0.75), 1)
    190.8
    >>> format_elo(6, 2, 2)
    '+147.2 +/- 268.7'

When a side scored everything (or nothing) the estimate is infinite and the
spread is zero, so the error bar says nothing; then the bound that the games
do support is given instead, from the exact binomial (Clopper-Pearson) limit:
a perfect score in n games means a true score of at least 0.025 ** (1/n).

    >>> format_elo(10, 0, 0)
    '> +140.2'

Only draws also give a spread of zero, so '+0.0 +/- 0.0': the normal
approximation has nothing to go on until a game is decided.
"""
import math

Z95 = 1.959963984540054  # two-sided 95% quantile of the normal distribution


def score_fraction(wins, draws, losses):
    """Points per game, 0.0 to 1.0 (draws count half); None when no games."""
    games = wins + draws + losses
    if games == 0:
        return None
    return (wins + 0.5 * draws) / games


def elo_from_score(score):
    """Elo difference that gives the expected score `score` (0 to 1).

    >>> elo_from_score(0.5)
    0.0
    >>> elo_from_score(1.0), elo_from_score(0.0)
    (inf, -inf)
    """
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no -0.0


def score_from_elo(elo):
    """Expected score against an opponent `elo` points weaker (the inverse)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_interval(wins, draws, losses, z=Z95):
    """(elo, low, high): the estimate and its confidence interval.

    The interval is the score's mean plus or minus z standard errors, each end
    mapped to Elo; an end at or beyond 0% or 100% is -inf or +inf. None when
    no games were played.
    """
    games = wins + draws + losses
    score = score_fraction(wins, draws, losses)
    if score is None:
        return None
    if score in (0.0, 1.0):
        return perfect_score_interval(games, score)
    variance = (wins * (1.0 - score) ** 2 + draws * (0.5 - score) ** 2
                + losses * score ** 2) / games
    error = z * math.sqrt(variance / games)
    return (elo_from_score(score), elo_from_score(score - error),
            elo_from_score(score + error))


def perfect_score_interval(games, score, tail=0.025):
    """(elo, low, high) after `games` straight wins (score 1) or losses (score 0).

    Draws would have moved the score off 0 or 1, so every game was decisive;
    with no draws, Clopper-Pearson's exact bound for n successes in n trials
    is tail ** (1/n).
    """
    bound = elo_from_score(tail ** (1.0 / games))
    if score == 1.0:
        return (math.inf, bound, math.inf)
    return (-math.inf, -math.inf, -bound)


def elo_error(wins, draws, losses, z=Z95):
    """Half the width of the 95% interval in Elo (inf when unbounded, None with no games).

    >>> round(elo_error(5, 0, 5), 1)
    251.8
    """
    interval = elo_interval(wins, draws, losses, z)
    if interval is None:
        return None
    _, low, high = interval
    return (high - low) / 2.0


def signed(value, digits=1):
    """'+12.3', '-4.0', '+inf', '-inf'."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return "%+.*f" % (digits, value)


def format_elo(wins, draws, losses, digits=1):
    """The Elo difference as a person reads it.

        '+35.2 +/- 101.4'                      both ends of the interval finite
        '+381.7 (+159.0 to +inf)'              one end runs off to 0% or 100%
        '> +140.2' / '< -140.2'                a perfect or a zero score (10 games)
        'no games'
    """
    interval = elo_interval(wins, draws, losses)
    if interval is None:
        return "no games"
    elo, low, high = interval
    if math.isinf(elo):
        return "> " + signed(low, digits) if elo > 0 else "< " + signed(high, digits)
    if math.isinf(low) or math.isinf(high):
        return "%s (%s to %s)" % (signed(elo, digits), signed(low, digits), signed(high, digits))
    return "%s +/- %.*f" % (signed(elo, digits), digits, (high - low) / 2.0)
