-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateIndex
CREATE INDEX "Feature_name_trgm_idx" ON "Feature" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Feature_description_trgm_idx" ON "Feature" USING GIN ("description" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "FeatureTag_tagValue_trgm_idx" ON "FeatureTag" USING GIN ("tagValue" gin_trgm_ops);

-- Written by hand (Prisma cannot declare expression indexes): the text that event search's
-- `query` matches, data + preData + tags as JSON text. The search builds this exact expression
-- so the planner can use the index. Prisma's diff ignores expression indexes, so
-- `npm run db:migration` never proposes to drop it.
CREATE INDEX "Event_search_text_trgm_idx" ON "Event" USING GIN (
  (coalesce("data"::text, '') || ' ' || coalesce("preData"::text, '') || ' ' || "tags"::text) gin_trgm_ops
);
