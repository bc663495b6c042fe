-- start_places.sql: win rate by starting place (`start_places` of `getbit stats --json`).
-- One row per line length (swimmers) and place (1 = front), then one per place over
-- every line length (swimmers NULL): swimmers, place, games, wins, win_rate.
-- Reads the view `swimmers`: every swimmer row of the counted games (live, valid),
-- the automated swimmer of three-player included (it has a place), the Shark not.
WITH placed AS (
    SELECT swimmers, start_place, won
    FROM swimmers
    WHERE revision = 'live' AND status = 'valid' AND role <> 'shark'
),
by_line AS (
    SELECT swimmers, start_place AS place, COUNT(*) AS games, SUM(won) AS wins
    FROM placed
    GROUP BY swimmers, start_place
),
overall AS (
    SELECT CAST(NULL AS BIGINT) AS swimmers, start_place AS place, COUNT(*) AS games,
        SUM(won) AS wins
    FROM placed
    GROUP BY start_place
),
both_ AS (
    SELECT swimmers, place, games, wins FROM by_line
    UNION ALL
    SELECT swimmers, place, games, wins FROM overall
)
SELECT swimmers, place, games, wins,
    CAST(wins AS DOUBLE) / NULLIF(games, 0) AS win_rate
FROM both_
ORDER BY CASE WHEN swimmers IS NULL THEN 1 ELSE 0 END, swimmers, place
