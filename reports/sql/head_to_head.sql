-- head_to_head.sql: every pair of players that met, and how often each finished
-- ahead (`head_to_head` of `getbit stats --json`).
-- One row a pair: first, second (player keys, first < second), games, first_ahead,
-- second_ahead. Join players.sql on player_key for the names. Reads the view
-- `swimmers`; counted rows as players.sql (live, valid games, no automaton, a
-- player's rank that of its first row). Ranks in a game never tie.
WITH firsts AS (
    SELECT game_id, player_key, rank,
        ROW_NUMBER() OVER (
            PARTITION BY game_id, player_key
            ORDER BY CASE WHEN role = 'shark' THEN 1 ELSE 0 END, start_place NULLS LAST
        ) AS nth
    FROM swimmers
    WHERE revision = 'live' AND status = 'valid' AND role <> 'automaton'
),
per_game AS (
    SELECT game_id, player_key, rank FROM firsts WHERE nth = 1
)
SELECT a.player_key AS first, b.player_key AS second, COUNT(*) AS games,
    SUM(CASE WHEN a.rank < b.rank THEN 1 ELSE 0 END) AS first_ahead,
    SUM(CASE WHEN a.rank < b.rank THEN 0 ELSE 1 END) AS second_ahead
FROM per_game a
JOIN per_game b ON a.game_id = b.game_id AND a.player_key < b.player_key
GROUP BY a.player_key, b.player_key
ORDER BY a.player_key, b.player_key
