-- CreateTable
CREATE TABLE "PublicSignupToken" (
    "secret" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "roleId" INTEGER NOT NULL,
    "createdBy" TEXT,
    "createdByUserId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PublicSignupToken_pkey" PRIMARY KEY ("secret")
);

-- CreateTable
CREATE TABLE "PublicSignupTokenUser" (
    "secret" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PublicSignupTokenUser_pkey" PRIMARY KEY ("secret","userId")
);

-- CreateIndex
CREATE INDEX "PublicSignupTokenUser_userId_idx" ON "PublicSignupTokenUser"("userId");

-- AddForeignKey
ALTER TABLE "PublicSignupToken" ADD CONSTRAINT "PublicSignupToken_roleId_fkey" FOREIGN KEY ("roleId") REFERENCES "Role"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PublicSignupTokenUser" ADD CONSTRAINT "PublicSignupTokenUser_secret_fkey" FOREIGN KEY ("secret") REFERENCES "PublicSignupToken"("secret") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PublicSignupTokenUser" ADD CONSTRAINT "PublicSignupTokenUser_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
