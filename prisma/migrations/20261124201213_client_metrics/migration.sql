-- CreateTable
CREATE TABLE "ClientMetricsHourly" (
    "featureName" TEXT NOT NULL,
    "environmentName" TEXT NOT NULL,
    "appName" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "yes" INTEGER NOT NULL DEFAULT 0,
    "no" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ClientMetricsHourly_pkey" PRIMARY KEY ("featureName","environmentName","appName","hour")
);

-- CreateTable
CREATE TABLE "ClientVariantMetricsHourly" (
    "featureName" TEXT NOT NULL,
    "environmentName" TEXT NOT NULL,
    "appName" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "variant" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ClientVariantMetricsHourly_pkey" PRIMARY KEY ("featureName","environmentName","appName","hour","variant")
);

-- CreateTable
CREATE TABLE "ClientApplication" (
    "appName" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ClientApplication_pkey" PRIMARY KEY ("appName")
);

-- CreateTable
CREATE TABLE "ClientInstance" (
    "appName" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "sdkType" TEXT NOT NULL,
    "sdkVersion" TEXT,
    "platformName" TEXT,
    "platformVersion" TEXT,
    "strategies" TEXT[],
    "startedAt" TIMESTAMP(3),
    "interval" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ClientInstance_pkey" PRIMARY KEY ("appName","instanceId","environment")
);

-- CreateIndex
CREATE INDEX "ClientMetricsHourly_appName_idx" ON "ClientMetricsHourly"("appName");

-- CreateIndex
CREATE INDEX "ClientMetricsHourly_hour_idx" ON "ClientMetricsHourly"("hour");

-- CreateIndex
CREATE INDEX "ClientVariantMetricsHourly_hour_idx" ON "ClientVariantMetricsHourly"("hour");

-- AddForeignKey
ALTER TABLE "ClientMetricsHourly" ADD CONSTRAINT "ClientMetricsHourly_featureName_fkey" FOREIGN KEY ("featureName") REFERENCES "Feature"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ClientVariantMetricsHourly" ADD CONSTRAINT "ClientVariantMetricsHourly_featureName_fkey" FOREIGN KEY ("featureName") REFERENCES "Feature"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ClientInstance" ADD CONSTRAINT "ClientInstance_appName_fkey" FOREIGN KEY ("appName") REFERENCES "ClientApplication"("appName") ON DELETE CASCADE ON UPDATE CASCADE;
