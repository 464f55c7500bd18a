-- A flag's collaborators (src/loaders.ts) were computed by reading every event of the flag: 44 ms
-- for a flag with 100,000 events, at every read of its record and every toggle's answer. With
-- this index they are a few index probes per distinct creator (a loose index scan).
-- CreateIndex
CREATE INDEX "Event_featureName_createdByUserId_id_idx" ON "Event"("featureName", "createdByUserId", "id");
