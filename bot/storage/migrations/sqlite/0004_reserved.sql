-- 0004: RESERVED for another branch's migration (numbers must be contiguous).
-- Placeholder on the analysis branch only (issue 33 uses 0005): the lead deletes this
-- file when merging, the settings branch's 0004 takes its place.
SELECT 1;
