-- CreateTable
CREATE TABLE "UnknownFlag" (
    "name" TEXT NOT NULL,
    "appName" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UnknownFlag_pkey" PRIMARY KEY ("name","appName","environment")
);

-- CreateIndex
CREATE INDEX "UnknownFlag_seenAt_idx" ON "UnknownFlag"("seenAt");
