-- AlterTable
ALTER TABLE "ReleasePlan" ADD COLUMN     "stepChangeRequestId" INTEGER;
