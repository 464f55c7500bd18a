-- CreateTable
CREATE TABLE "ReleasePlanTemplate" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "milestones" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "createdByUserId" INTEGER,
    "archivedAt" TIMESTAMP(3),

    CONSTRAINT "ReleasePlanTemplate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReleasePlan" (
    "id" TEXT NOT NULL,
    "templateId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "featureName" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "milestones" JSONB NOT NULL,
    "safeguards" JSONB NOT NULL DEFAULT '[]',
    "activeIndex" INTEGER,
    "milestoneStartedAt" TIMESTAMP(3),
    "state" TEXT NOT NULL DEFAULT 'active',
    "pausedAt" TIMESTAMP(3),
    "pauseReason" JSONB,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "createdByUserId" INTEGER,

    CONSTRAINT "ReleasePlan_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ReleasePlanTemplate_name_key" ON "ReleasePlanTemplate"("name");

-- CreateIndex
CREATE INDEX "ReleasePlan_state_idx" ON "ReleasePlan"("state");

-- CreateIndex
CREATE UNIQUE INDEX "ReleasePlan_featureName_environment_key" ON "ReleasePlan"("featureName", "environment");

-- AddForeignKey
ALTER TABLE "ReleasePlan" ADD CONSTRAINT "ReleasePlan_featureName_fkey" FOREIGN KEY ("featureName") REFERENCES "Feature"("name") ON DELETE CASCADE ON UPDATE CASCADE;
