-- Event counts now include pairs of dimensions (src/modules/search/event-counts.ts). The counts
-- rolled up so far have no pairs, so they start again from the first event: until the rollup
-- job has caught up, totals count the newer events live (exact, only slower).
DELETE FROM "EventCount";
UPDATE "EventCountCursor" SET "throughId" = 0;
