-- A change request remembers the API token that created it, and approvals are counted per
-- approver (a user, or an API token: admin tokens all write user -42).
ALTER TABLE "ChangeRequest" ADD COLUMN "createdByTokenId" INTEGER;

ALTER TABLE "ChangeRequestApproval" ADD COLUMN "approverKey" TEXT;
UPDATE "ChangeRequestApproval" SET "approverKey" = 'user:' || "userId";
ALTER TABLE "ChangeRequestApproval" ALTER COLUMN "approverKey" SET NOT NULL,
  DROP CONSTRAINT "ChangeRequestApproval_pkey",
  ADD CONSTRAINT "ChangeRequestApproval_pkey" PRIMARY KEY ("changeRequestId", "approverKey");
