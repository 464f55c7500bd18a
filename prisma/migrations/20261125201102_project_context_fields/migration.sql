-- AlterTable
ALTER TABLE "ContextField" ADD COLUMN     "projectId" TEXT;

-- CreateIndex
CREATE INDEX "ContextField_projectId_idx" ON "ContextField"("projectId");

-- AddForeignKey
ALTER TABLE "ContextField" ADD CONSTRAINT "ContextField_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
