-- 0006: a ledger row's points exactly (issue 30 item 1).  A chouette partner's
-- forfeited stake is shared equally by the partners still in (000 'CHOUETTE'), and box
-- partners share the box's result: halves, thirds.  The row's points are now
-- points / points_den (points_den >= 1, in lowest terms); every row written before
-- has points_den 1, which is what it meant.  amount stays whole units of the stake.
ALTER TABLE ledger ADD COLUMN points_den BIGINT NOT NULL DEFAULT 1;
