-- Invite links keep only the SHA-256 of their secret (hex of the UTF-8 bytes, as hashSecret in
-- src/modules/access/credentials.write.ts) and get an id of their own, numbered by creation.
-- Links made before keep working: the secret their holders send hashes to the stored value;
-- only their URL can no longer be shown. Sign-ups keep their link through its new id.
-- DropForeignKey
ALTER TABLE "PublicSignupTokenUser" DROP CONSTRAINT "PublicSignupTokenUser_secret_fkey";

-- AlterTable
ALTER TABLE "PublicSignupToken" ADD COLUMN "id" SERIAL NOT NULL,
ADD COLUMN     "secretHash" TEXT;

UPDATE "PublicSignupToken" t
   SET id = r.n, "secretHash" = encode(sha256(convert_to(t.secret, 'UTF8')), 'hex')
  FROM (SELECT secret, row_number() OVER (ORDER BY "createdAt", secret) AS n FROM "PublicSignupToken") r
 WHERE r.secret = t.secret;

ALTER TABLE "PublicSignupTokenUser" ADD COLUMN "tokenId" INTEGER;

UPDATE "PublicSignupTokenUser" u SET "tokenId" = t.id FROM "PublicSignupToken" t WHERE t.secret = u.secret;

ALTER TABLE "PublicSignupToken" DROP CONSTRAINT "PublicSignupToken_pkey",
DROP COLUMN "secret",
ALTER COLUMN "secretHash" SET NOT NULL,
ADD CONSTRAINT "PublicSignupToken_pkey" PRIMARY KEY ("id");

-- AlterTable
ALTER TABLE "PublicSignupTokenUser" DROP CONSTRAINT "PublicSignupTokenUser_pkey",
DROP COLUMN "secret",
ALTER COLUMN "tokenId" SET NOT NULL,
ADD CONSTRAINT "PublicSignupTokenUser_pkey" PRIMARY KEY ("tokenId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "PublicSignupToken_secretHash_key" ON "PublicSignupToken"("secretHash");

-- AddForeignKey
ALTER TABLE "PublicSignupTokenUser" ADD CONSTRAINT "PublicSignupTokenUser_tokenId_fkey" FOREIGN KEY ("tokenId") REFERENCES "PublicSignupToken"("id") ON DELETE CASCADE ON UPDATE CASCADE;
