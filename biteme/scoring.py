"""The end of a walk of a "Come on! Bite me!" record: how the game stands, its
scores and winners (B15, B16), and the result the record claims (its Winner and
Scores tags) checked against them."""

from __future__ import annotations

import attrs

from biteme import rules
from biteme.findings import Walk
from biteme.tags import Claimed as ClaimedResult

__all__ = ["BiteFinal", "final"]


@attrs.frozen
class BiteFinal:
    """How a game stands after its last recorded turn: the end (B15), each player's
    trophies and discards, and the scores and winners (B16), None where a strength
    they need was never stated (B3)."""

    finished: bool
    trophies: dict[str, int]
    discards: dict[str, int]
    scores: dict[str, int] | None
    winners: tuple[str, ...] | None
    ranking: tuple[str, ...] | None


def _scores(walk: Walk) -> dict[str, int] | frozenset[str]:
    table = walk.table
    return rules.scores(
        [(n, table.seats[n].trophies, table.seats[n].discards) for n in table.order],
        table.strengths,
    )


def final(walk: Walk, claimed: ClaimedResult) -> BiteFinal:
    """How the game stands, its Winner and Scores tags checked against it (B16)."""
    table = walk.table
    trophies = {n: len(table.seats[n].trophies) for n in table.order}
    discards = {n: len(table.seats[n].discards) for n in table.order}
    score = _scores(walk)
    where = claimed.winner.pos if claimed.winner else walk.record.pos
    if isinstance(score, frozenset):
        walk.warn(
            "the scores are not checked: nobody stated the strength of "
            + ", ".join(sorted(score, key=rules.CARDS.index)),
            where,
        )
        scores = None
    else:
        scores = score
    winners = ranking = None
    if table.finished and scores is not None:
        ranking, winners = rules.standings(scores, trophies, table.order)
    _check_winner(walk, claimed, winners)
    _check_scores(walk, claimed, scores)
    return BiteFinal(table.finished, trophies, discards, scores, winners, ranking)


def _check_winner(walk: Walk, claimed: ClaimedResult, winners: tuple[str, ...] | None) -> None:
    tag = claimed.winner
    if tag is None:
        return
    named = [walk.canon.get(n.strip().casefold()) for n in tag.value.split(",")]
    if None in named:
        walk.flag("unknown-player", f"Winner names {tag.value!r}: not all at the table", tag.pos)
        return
    if not walk.table.finished:
        walk.flag(
            "wrong-winner",
            f"Winner says {tag.value}, but the game is unfinished: the deck is not empty",
            tag.pos,
            "B15",
        )
    elif winners is not None and set(named) != set(winners):
        walk.flag(
            "wrong-winner",
            f"Winner says {tag.value}, but the rules give {', '.join(winners)}",
            tag.pos,
            "B16",
        )


def _check_scores(walk: Walk, claimed: ClaimedResult, scores: dict[str, int] | None) -> None:
    tag = claimed.scores
    if tag is None or scores is None:
        return
    for item in (i.strip() for i in tag.value.split(",") if i.strip()):
        name, _, value = item.partition("=")
        player = walk.canon.get(name.strip().casefold())
        try:
            points = int(value)
        except ValueError:
            points = None
        if player is None or points is None:
            walk.flag(
                "bad-tag-value", f"{item!r} in Scores: write each as NAME=POINTS", tag.pos
            )
        elif points != scores[player]:
            walk.flag(
                "wrong-score",
                f"Scores gives {player} {points}, but the rules give {scores[player]}",
                tag.pos,
                "B16",
            )
