-- CreateTable
CREATE TABLE "ImpactMetricMinute" (
    "name" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "appName" TEXT NOT NULL,
    "labelsKey" TEXT NOT NULL,
    "minute" TIMESTAMP(3) NOT NULL,
    "type" TEXT NOT NULL,
    "labels" JSONB NOT NULL DEFAULT '{}',
    "value" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "count" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "buckets" JSONB,

    CONSTRAINT "ImpactMetricMinute_pkey" PRIMARY KEY ("name","environment","minute","appName","labelsKey")
);

-- CreateIndex
CREATE INDEX "ImpactMetricMinute_minute_idx" ON "ImpactMetricMinute"("minute");
