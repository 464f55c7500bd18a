-- CreateTable
CREATE TABLE "EventCount" (
    "dimension" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "count" BIGINT NOT NULL,

    CONSTRAINT "EventCount_pkey" PRIMARY KEY ("dimension","value")
);

-- CreateTable
CREATE TABLE "EventCountCursor" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "throughId" BIGINT NOT NULL,

    CONSTRAINT "EventCountCursor_pkey" PRIMARY KEY ("id")
);
