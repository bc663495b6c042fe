"""Skill ratings: openskill's Plackett-Luce model, updated game by game in date order."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs
from openskill.models import PlackettLuce, PlackettLuceRating

__all__ = ["Rating", "RatingPoint", "rate_games"]


@attrs.frozen
class Rating:
    """A player's rating after the last game: ``ordinal`` (mu - 3 sigma) is the one to show."""

    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@attrs.frozen
class RatingPoint:
    """One player's rating just after one game (for plots of rating over time).

    ``game`` counts the games rated so far, all players together (1 for the first).
    """

    game: int
    game_id: str
    date: str | None
    ordinal: float


def rate_games(
    games: Iterable[Sequence[tuple[str, int]]],
    game_ids: Sequence[str] = (),
    dates: Sequence[str | None] = (),
    history: bool = False,
) -> tuple[dict[str, Rating], dict[str, list[RatingPoint]]]:
    """Ratings after ``games`` (each a list of (player key, rank), in the order to rate).

    Every player is a team of one, ranked by its finishing place (1 best). A game
    with fewer than two players changes nothing. With ``history``, each player's
    rating after each of its games is kept too (``game_ids``/``dates`` name them).
    """
    model = PlackettLuce()
    current: dict[str, PlackettLuceRating] = {}
    counts: dict[str, int] = {}
    points: dict[str, list[RatingPoint]] = {}
    rating = model.rating
    rate = model.rate
    for i, game in enumerate(games):
        if len(game) < 2:
            continue
        teams: list[list[PlackettLuceRating]] = []
        for key, _ in game:
            r = current.get(key)
            if r is None:
                r = current[key] = rating(name=key)
            teams.append([r])
        result = rate(teams, ranks=[float(rank) for _, rank in game])
        for (key, _), [new] in zip(game, result, strict=True):
            current[key] = new
            counts[key] = counts.get(key, 0) + 1
            if history:
                points.setdefault(key, []).append(
                    RatingPoint(
                        i + 1,
                        game_ids[i] if game_ids else str(i),
                        dates[i] if dates else None,
                        new.ordinal(),
                    )
                )
    ratings = {
        key: Rating(r.mu, r.sigma, counts[key]) for key, r in current.items()
    }
    return ratings, points
