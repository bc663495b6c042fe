-- games.sql: the games `getbit stats --json` counts and the ones it leaves out, and why.
-- One row: games_included, then games_excluded's superseded, retracted, invalid,
-- unfinished and filtered (always 0: this SQL has no filters), then dated_games.
-- Reads the view `games` (the Parquet folder games/). A game counts when it is the
-- latest live revision (revision = 'live') and valid (finished by the rules);
-- a game left out counts under the first reason that applies, in that order
-- (an invalid set-up that has no events is invalid too).
SELECT
    COUNT(CASE WHEN revision = 'live' AND status = 'valid' THEN 1 END) AS games_included,
    COUNT(CASE WHEN revision = 'superseded' THEN 1 END) AS superseded,
    COUNT(CASE WHEN revision = 'retracted' THEN 1 END) AS retracted,
    COUNT(CASE WHEN revision = 'live' AND status = 'invalid' THEN 1 END) AS invalid,
    COUNT(CASE WHEN revision = 'live' AND status = 'unfinished' THEN 1 END) AS unfinished,
    0 AS filtered,
    COUNT(CASE WHEN revision = 'live' AND status = 'valid' AND date IS NOT NULL
        THEN 1 END) AS dated_games
FROM games
