-- 0002: stakes and ledger points as 64-bit integers, like SQLite's INTEGER.
-- 0001 had them as INTEGER (32 bits): a stake or a cube of 2**31 could be
-- accepted and then never be written.  ALTER ... TYPE BIGINT rewrites the
-- tables and keeps every row (every INTEGER value is a BIGINT value).
-- ledger.amount was BIGINT already.  Every other INTEGER column holds a count,
-- a die, a version or a match length, bounded far below 2**31.
ALTER TABLE matches ALTER COLUMN stake TYPE BIGINT;
ALTER TABLE ledger ALTER COLUMN points TYPE BIGINT;
