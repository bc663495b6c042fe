-- rank_distribution.sql: how often each player finished in each place
-- (`rank_distribution` of `players[]` in `getbit stats --json`).
-- One row a player and rank: player_key, rank (1 best), games. Join players.sql on
-- player_key for the name. Reads the view `swimmers`; counted rows as players.sql:
-- the live, valid games, the automated swimmer left out (R9), a player's rank in a
-- game that of its first row (starting line order, the Shark last).
WITH firsts AS (
    SELECT game_id, player_key, rank,
        ROW_NUMBER() OVER (
            PARTITION BY game_id, player_key
            ORDER BY CASE WHEN role = 'shark' THEN 1 ELSE 0 END, start_place NULLS LAST
        ) AS nth
    FROM swimmers
    WHERE revision = 'live' AND status = 'valid' AND role <> 'automaton'
)
SELECT player_key, rank, COUNT(*) AS games
FROM firsts
WHERE nth = 1
GROUP BY player_key, rank
ORDER BY player_key, rank
