-- 0005: RESERVED for another branch's migration (numbers must be contiguous).
-- Placeholder on the players branch only (issue 30 item 1 uses 0006): the lead deletes
-- this file when merging, the other branch's 0005 takes its place.
SELECT 1;
