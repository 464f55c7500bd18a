-- CreateTable
CREATE TABLE "FeatureLink" (
    "id" TEXT NOT NULL,
    "featureName" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "title" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FeatureLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "FeatureLink_featureName_createdAt_idx" ON "FeatureLink"("featureName", "createdAt");

-- AddForeignKey
ALTER TABLE "FeatureLink" ADD CONSTRAINT "FeatureLink_featureName_fkey" FOREIGN KEY ("featureName") REFERENCES "Feature"("name") ON DELETE CASCADE ON UPDATE CASCADE;
