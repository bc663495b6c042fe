-- players.sql: one row a player, every number of `players[]` in `getbit stats --json`
-- that SQL can compute exactly (all but `rating`: see docs/scale.md).
--
-- Reads the view `swimmers` (the Parquet folder swimmers/: the read model, one row
-- a game a swimmer, and one for the Shark). Counted rows: the live, valid games'
-- (see games.sql), the automated swimmer left out (R9: never a player). A player
-- is `player_key` (the name ignoring case); `name` is its commonest spelling, the
-- first seen (date order, undated last, then import order) among equals.
-- Columns as in the JSON, with these differences: `plays_1` .. `plays_7` are
-- `plays_by_value`, `blank_plays` is `no_card_rounds`, `discarded` is
-- `cards_discarded`, `rank_total` is for `average_rank`; `rank_distribution` is
-- rank_distribution.sql. Rows in the order `getbit stats` lists players: win rate,
-- then games, both highest first, then `player_key` (the name casefolded, as there).
WITH counted AS (
    SELECT *
    FROM swimmers
    WHERE revision = 'live' AND status = 'valid' AND role <> 'automaton'
),
-- a player's rank and result in a game are those of its first row (starting line
-- order, the Shark last); a two-player team's two swimmers carry the same
firsts AS (
    SELECT game_id, player_key, date, stored, rank, won,
        ROW_NUMBER() OVER (
            PARTITION BY game_id, player_key
            ORDER BY CASE WHEN role = 'shark' THEN 1 ELSE 0 END, start_place NULLS LAST
        ) AS nth
    FROM counted
),
per_game AS (
    SELECT game_id, player_key, date, stored, rank, won FROM firsts WHERE nth = 1
),
results AS (
    SELECT player_key, COUNT(*) AS games, SUM(won) AS wins, SUM(rank) AS rank_total,
        SUM(CASE WHEN date IS NOT NULL THEN 1 ELSE 0 END) AS dated_games
    FROM per_game
    GROUP BY player_key
),
-- streaks: dated games only, in date order, games of one date in import order;
-- a run is an island of equal results (row number minus row number within result)
dated AS (
    SELECT player_key, won,
        ROW_NUMBER() OVER (PARTITION BY player_key ORDER BY date, stored)
        - ROW_NUMBER() OVER (PARTITION BY player_key, won ORDER BY date, stored) AS island
    FROM per_game
    WHERE date IS NOT NULL
),
runs AS (
    SELECT player_key, won, COUNT(*) AS run FROM dated GROUP BY player_key, won, island
),
streaks AS (
    SELECT player_key,
        MAX(CASE WHEN won = 1 THEN run ELSE 0 END) AS longest_winning_streak,
        MAX(CASE WHEN won = 0 THEN run ELSE 0 END) AS longest_losing_streak
    FROM runs
    GROUP BY player_key
),
-- the read model's counts added up over a player's rows (two-player: both swimmers)
sums AS (
    SELECT player_key,
        COUNT(DISTINCT CASE WHEN role = 'swimmer' THEN game_id END) AS swimmer_games,
        SUM(CASE WHEN role = 'shark' THEN 1 ELSE 0 END) AS shark_games,
        SUM(CASE WHEN role = 'shark' THEN won ELSE 0 END) AS shark_wins,
        SUM(bites_taken) AS bites_taken,
        SUM(limbs_lost) AS limbs_lost,
        SUM(devoured) AS devoured,
        SUM(rounds_survived) AS rounds_survived,
        SUM(plays_1) AS plays_1,
        SUM(plays_2) AS plays_2,
        SUM(plays_3) AS plays_3,
        SUM(plays_4) AS plays_4,
        SUM(plays_5) AS plays_5,
        SUM(plays_6) AS plays_6,
        SUM(plays_7) AS plays_7,
        SUM(blank_plays) AS blank_plays,
        SUM(tied_plays) AS tied_plays,
        SUM(moved_plays) AS moved_plays,
        SUM(rounds_front) AS rounds_front,
        SUM(rounds_back) AS rounds_back,
        SUM(take_backs) AS take_backs,
        SUM(discarded) AS discarded,
        SUM(shark_cards) AS shark_cards,
        SUM(shark_bites) AS shark_bites,
        SUM(shark_exhaustions) AS shark_exhaustions,
        SUM(shark_misses) AS shark_misses,
        COALESCE(SUM(hunger_left), 0) AS hunger_left
    FROM counted
    GROUP BY player_key
),
spellings AS (
    SELECT player_key, name, COUNT(*) AS spelt,
        MIN(CASE WHEN date IS NOT NULL
            THEN '0' || date || '|' || LPAD(CAST(stored AS STRING), 12, '0')
            ELSE '1|' || LPAD(CAST(stored AS STRING), 12, '0') END) AS first_seen
    FROM counted
    GROUP BY player_key, name
),
names AS (
    SELECT player_key, name
    FROM (
        SELECT player_key, name,
            ROW_NUMBER() OVER (
                PARTITION BY player_key ORDER BY spelt DESC, first_seen, name
            ) AS nth
        FROM spellings
    ) AS ranked
    WHERE nth = 1
),
players AS (
    SELECT n.player_key, n.name, r.games, r.wins, r.rank_total, r.dated_games,
        COALESCE(k.longest_winning_streak, 0) AS longest_winning_streak,
        COALESCE(k.longest_losing_streak, 0) AS longest_losing_streak,
        s.swimmer_games, s.shark_games, s.shark_wins, s.bites_taken, s.limbs_lost,
        s.devoured, s.rounds_survived, s.plays_1, s.plays_2, s.plays_3, s.plays_4,
        s.plays_5, s.plays_6, s.plays_7, s.blank_plays, s.tied_plays, s.moved_plays,
        s.rounds_front, s.rounds_back, s.take_backs, s.discarded, s.shark_cards,
        s.shark_bites, s.shark_exhaustions, s.shark_misses, s.hunger_left
    FROM names n
    JOIN results r ON r.player_key = n.player_key
    JOIN sums s ON s.player_key = n.player_key
    LEFT JOIN streaks k ON k.player_key = n.player_key
)
SELECT
    player_key, name, games, wins,
    CAST(wins AS DOUBLE) / NULLIF(games, 0) AS win_rate,
    rank_total,
    CAST(rank_total AS DOUBLE) / NULLIF(games, 0) AS average_rank,
    swimmer_games,
    bites_taken,
    CAST(bites_taken AS DOUBLE) / NULLIF(swimmer_games, 0) AS bites_taken_per_game,
    limbs_lost,
    CAST(limbs_lost AS DOUBLE) / NULLIF(swimmer_games, 0) AS limbs_lost_per_game,
    devoured,
    CAST(devoured AS DOUBLE) / NULLIF(swimmer_games, 0) AS devoured_per_game,
    rounds_survived,
    CAST(rounds_survived AS DOUBLE) / NULLIF(swimmer_games, 0) AS rounds_survived_per_game,
    plays_1 + plays_2 + plays_3 + plays_4 + plays_5 + plays_6 + plays_7 AS plays,
    plays_1, plays_2, plays_3, plays_4, plays_5, plays_6, plays_7,
    blank_plays,
    tied_plays,
    CAST(tied_plays AS DOUBLE)
        / NULLIF(plays_1 + plays_2 + plays_3 + plays_4 + plays_5 + plays_6 + plays_7, 0)
        AS tied_share,
    moved_plays,
    CAST(moved_plays AS DOUBLE)
        / NULLIF(plays_1 + plays_2 + plays_3 + plays_4 + plays_5 + plays_6 + plays_7, 0)
        AS moved_share,
    rounds_front,
    CAST(rounds_front AS DOUBLE) / NULLIF(rounds_survived, 0) AS front_share,
    rounds_back,
    CAST(rounds_back AS DOUBLE) / NULLIF(rounds_survived, 0) AS back_share,
    take_backs,
    CAST(take_backs AS DOUBLE) / NULLIF(swimmer_games, 0) AS take_backs_per_game,
    discarded,
    shark_games, shark_wins, shark_cards,
    shark_cards - shark_misses AS shark_hits,
    CAST(shark_cards - shark_misses AS DOUBLE) / NULLIF(shark_cards, 0) AS shark_hit_rate,
    shark_bites, shark_exhaustions, shark_misses, hunger_left,
    CAST(hunger_left AS DOUBLE) / NULLIF(shark_games, 0) AS average_hunger_left,
    dated_games, longest_winning_streak, longest_losing_streak
FROM players
ORDER BY win_rate DESC, games DESC, player_key
