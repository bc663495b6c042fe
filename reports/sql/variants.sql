-- variants.sql: the counted games by variant (`variants` of `getbit stats --json`).
-- One row a variant: variant, games. Reads the view `games`; counted games are the
-- live, valid ones (see games.sql).
SELECT variant, COUNT(*) AS games
FROM games
WHERE revision = 'live' AND status = 'valid'
GROUP BY variant
ORDER BY variant
