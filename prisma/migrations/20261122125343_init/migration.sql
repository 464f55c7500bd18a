-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Project" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "health" INTEGER NOT NULL DEFAULT 100,
    "defaultStickiness" TEXT NOT NULL DEFAULT 'default',
    "featureLimit" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archivedAt" TIMESTAMP(3),

    CONSTRAINT "Project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Environment" (
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "sortOrder" INTEGER NOT NULL DEFAULT 1,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "protected" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Environment_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "ProjectEnvironment" (
    "projectId" TEXT NOT NULL,
    "environmentName" TEXT NOT NULL,
    "defaultStrategy" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProjectEnvironment_pkey" PRIMARY KEY ("projectId","environmentName")
);

-- CreateTable
CREATE TABLE "ContextField" (
    "name" TEXT NOT NULL,
    "description" TEXT,
    "stickiness" BOOLEAN NOT NULL DEFAULT false,
    "sortOrder" INTEGER NOT NULL DEFAULT 10,
    "legalValues" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContextField_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "FeatureType" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "lifetimeDays" INTEGER,

    CONSTRAINT "FeatureType_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Feature" (
    "name" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'release',
    "description" TEXT,
    "stale" BOOLEAN NOT NULL DEFAULT false,
    "potentiallyStale" BOOLEAN NOT NULL DEFAULT false,
    "impressionData" BOOLEAN NOT NULL DEFAULT false,
    "variants" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdByUserId" INTEGER,
    "lastSeenAt" TIMESTAMP(3),
    "archivedAt" TIMESTAMP(3),

    CONSTRAINT "Feature_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "FeatureEnvironment" (
    "featureName" TEXT NOT NULL,
    "environmentName" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "variants" JSONB NOT NULL DEFAULT '[]',
    "lastSeenAt" TIMESTAMP(3),

    CONSTRAINT "FeatureEnvironment_pkey" PRIMARY KEY ("featureName","environmentName")
);

-- CreateTable
CREATE TABLE "FeatureStrategy" (
    "id" TEXT NOT NULL,
    "featureName" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environmentName" TEXT NOT NULL,
    "strategyName" TEXT NOT NULL,
    "title" TEXT,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "sortOrder" INTEGER NOT NULL DEFAULT 0,
    "parameters" JSONB NOT NULL DEFAULT '{}',
    "constraints" JSONB NOT NULL DEFAULT '[]',
    "variants" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdByUserId" INTEGER,

    CONSTRAINT "FeatureStrategy_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Segment" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "projectId" TEXT,
    "constraints" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdByUserId" INTEGER,

    CONSTRAINT "Segment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FeatureStrategySegment" (
    "strategyId" TEXT NOT NULL,
    "segmentId" INTEGER NOT NULL,

    CONSTRAINT "FeatureStrategySegment_pkey" PRIMARY KEY ("strategyId","segmentId")
);

-- CreateTable
CREATE TABLE "TagType" (
    "name" TEXT NOT NULL,
    "description" TEXT,
    "icon" TEXT,
    "color" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TagType_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "Tag" (
    "type" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Tag_pkey" PRIMARY KEY ("type","value")
);

-- CreateTable
CREATE TABLE "FeatureTag" (
    "featureName" TEXT NOT NULL,
    "tagType" TEXT NOT NULL,
    "tagValue" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdByUserId" INTEGER,

    CONSTRAINT "FeatureTag_pkey" PRIMARY KEY ("featureName","tagType","tagValue")
);

-- CreateTable
CREATE TABLE "FeatureDependency" (
    "parentName" TEXT NOT NULL,
    "childName" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "variants" TEXT[] DEFAULT ARRAY[]::TEXT[],

    CONSTRAINT "FeatureDependency_pkey" PRIMARY KEY ("parentName","childName")
);

-- CreateTable
CREATE TABLE "FavoriteFeature" (
    "userId" INTEGER NOT NULL,
    "featureName" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FavoriteFeature_pkey" PRIMARY KEY ("userId","featureName")
);

-- CreateTable
CREATE TABLE "FavoriteProject" (
    "userId" INTEGER NOT NULL,
    "projectId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FavoriteProject_pkey" PRIMARY KEY ("userId","projectId")
);

-- CreateTable
CREATE TABLE "FeatureLifecycle" (
    "featureName" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "status" TEXT,
    "statusValue" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FeatureLifecycle_pkey" PRIMARY KEY ("featureName","stage")
);

-- CreateTable
CREATE TABLE "FeatureMetricsHourly" (
    "featureName" TEXT NOT NULL,
    "environmentName" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "yes" INTEGER NOT NULL DEFAULT 0,
    "no" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "FeatureMetricsHourly_pkey" PRIMARY KEY ("featureName","environmentName","hour")
);

-- CreateTable
CREATE TABLE "User" (
    "id" SERIAL NOT NULL,
    "username" TEXT,
    "email" TEXT,
    "name" TEXT,
    "imageUrl" TEXT,
    "passwordHash" TEXT,
    "rootRole" TEXT NOT NULL DEFAULT 'Viewer',
    "isService" BOOLEAN NOT NULL DEFAULT false,
    "loginAttempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "seenAt" TIMESTAMP(3),
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Role" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "type" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Role_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Permission" (
    "name" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "type" TEXT NOT NULL,

    CONSTRAINT "Permission_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "RolePermission" (
    "id" SERIAL NOT NULL,
    "roleId" INTEGER NOT NULL,
    "permissionName" TEXT NOT NULL,
    "environmentName" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "RolePermission_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProjectMember" (
    "userId" INTEGER NOT NULL,
    "projectId" TEXT NOT NULL,
    "roleId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProjectMember_pkey" PRIMARY KEY ("userId","projectId","roleId")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" SERIAL NOT NULL,
    "tokenName" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "projects" TEXT[],
    "secretHash" TEXT NOT NULL,
    "displayPrefix" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdByUserId" INTEGER,
    "seenAt" TIMESTAMP(3),

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PersonalAccessToken" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "description" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "seenAt" TIMESTAMP(3),

    CONSTRAINT "PersonalAccessToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserSession" (
    "id" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "csrfToken" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UserSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ResetToken" (
    "tokenHash" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdByUserId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ResetToken_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateTable
CREATE TABLE "PasswordHistory" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PasswordHistory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Event" (
    "id" BIGSERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,
    "createdByUserId" INTEGER,
    "project" TEXT,
    "environment" TEXT,
    "featureName" TEXT,
    "data" JSONB,
    "preData" JSONB,
    "tags" JSONB NOT NULL DEFAULT '[]',
    "label" TEXT,
    "summary" TEXT,
    "groupType" TEXT,
    "groupId" TEXT,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChangeRequestSetting" (
    "projectId" TEXT NOT NULL,
    "environmentName" TEXT NOT NULL,
    "requiredApprovals" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "ChangeRequestSetting_pkey" PRIMARY KEY ("projectId","environmentName")
);

-- CreateTable
CREATE TABLE "ChangeRequest" (
    "id" SERIAL NOT NULL,
    "projectId" TEXT NOT NULL,
    "environmentName" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'Draft',
    "title" TEXT,
    "minApprovals" INTEGER NOT NULL DEFAULT 1,
    "createdByUserId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChangeRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChangeRequestChange" (
    "id" SERIAL NOT NULL,
    "changeRequestId" INTEGER NOT NULL,
    "featureName" TEXT,
    "action" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "snapshot" JSONB,
    "createdByUserId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChangeRequestChange_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChangeRequestApproval" (
    "changeRequestId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChangeRequestApproval_pkey" PRIMARY KEY ("changeRequestId","userId")
);

-- CreateTable
CREATE TABLE "ChangeRequestRejection" (
    "changeRequestId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChangeRequestRejection_pkey" PRIMARY KEY ("changeRequestId","userId")
);

-- CreateTable
CREATE TABLE "ChangeRequestComment" (
    "id" SERIAL NOT NULL,
    "changeRequestId" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChangeRequestComment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChangeRequestSchedule" (
    "changeRequestId" INTEGER NOT NULL,
    "scheduledAt" TIMESTAMP(3) NOT NULL,
    "createdByUserId" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    "failureReason" TEXT,

    CONSTRAINT "ChangeRequestSchedule_pkey" PRIMARY KEY ("changeRequestId")
);

-- CreateTable
CREATE TABLE "Addon" (
    "id" SERIAL NOT NULL,
    "provider" TEXT NOT NULL,
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "parameters" JSONB NOT NULL DEFAULT '{}',
    "events" TEXT[],
    "projects" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "environments" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Addon_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AddonDelivery" (
    "id" BIGSERIAL NOT NULL,
    "addonId" INTEGER NOT NULL,
    "eventId" BIGINT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AddonDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IntegrationEvent" (
    "id" BIGSERIAL NOT NULL,
    "addonId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "state" TEXT NOT NULL,
    "stateDetails" TEXT NOT NULL,
    "event" JSONB NOT NULL,
    "details" JSONB NOT NULL,

    CONSTRAINT "IntegrationEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Setting" (
    "name" TEXT NOT NULL,
    "content" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "ProjectEnvironment_environmentName_idx" ON "ProjectEnvironment"("environmentName");

-- CreateIndex
CREATE INDEX "Feature_projectId_archivedAt_idx" ON "Feature"("projectId", "archivedAt");

-- CreateIndex
CREATE INDEX "Feature_createdAt_idx" ON "Feature"("createdAt");

-- CreateIndex
CREATE INDEX "Feature_type_idx" ON "Feature"("type");

-- CreateIndex
CREATE INDEX "Feature_createdByUserId_idx" ON "Feature"("createdByUserId");

-- CreateIndex
CREATE INDEX "Feature_archivedAt_idx" ON "Feature"("archivedAt");

-- CreateIndex
CREATE INDEX "FeatureEnvironment_environmentName_enabled_idx" ON "FeatureEnvironment"("environmentName", "enabled");

-- CreateIndex
CREATE INDEX "FeatureStrategy_featureName_environmentName_sortOrder_idx" ON "FeatureStrategy"("featureName", "environmentName", "sortOrder");

-- CreateIndex
CREATE UNIQUE INDEX "Segment_name_key" ON "Segment"("name");

-- CreateIndex
CREATE INDEX "FeatureStrategySegment_segmentId_idx" ON "FeatureStrategySegment"("segmentId");

-- CreateIndex
CREATE INDEX "FeatureTag_tagType_tagValue_idx" ON "FeatureTag"("tagType", "tagValue");

-- CreateIndex
CREATE INDEX "FeatureDependency_childName_idx" ON "FeatureDependency"("childName");

-- CreateIndex
CREATE INDEX "FavoriteFeature_featureName_idx" ON "FavoriteFeature"("featureName");

-- CreateIndex
CREATE INDEX "FeatureLifecycle_featureName_createdAt_idx" ON "FeatureLifecycle"("featureName", "createdAt");

-- CreateIndex
CREATE INDEX "FeatureMetricsHourly_hour_idx" ON "FeatureMetricsHourly"("hour");

-- CreateIndex
CREATE UNIQUE INDEX "User_username_key" ON "User"("username");

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Role_name_key" ON "Role"("name");

-- CreateIndex
CREATE UNIQUE INDEX "RolePermission_roleId_permissionName_environmentName_key" ON "RolePermission"("roleId", "permissionName", "environmentName");

-- CreateIndex
CREATE INDEX "ProjectMember_projectId_idx" ON "ProjectMember"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_secretHash_key" ON "ApiToken"("secretHash");

-- CreateIndex
CREATE UNIQUE INDEX "PersonalAccessToken_secretHash_key" ON "PersonalAccessToken"("secretHash");

-- CreateIndex
CREATE INDEX "PersonalAccessToken_userId_idx" ON "PersonalAccessToken"("userId");

-- CreateIndex
CREATE INDEX "UserSession_userId_idx" ON "UserSession"("userId");

-- CreateIndex
CREATE INDEX "ResetToken_userId_idx" ON "ResetToken"("userId");

-- CreateIndex
CREATE INDEX "PasswordHistory_userId_idx" ON "PasswordHistory"("userId");

-- CreateIndex
CREATE INDEX "Event_featureName_id_idx" ON "Event"("featureName", "id");

-- CreateIndex
CREATE INDEX "Event_project_id_idx" ON "Event"("project", "id");

-- CreateIndex
CREATE INDEX "Event_type_id_idx" ON "Event"("type", "id");

-- CreateIndex
CREATE INDEX "Event_createdByUserId_id_idx" ON "Event"("createdByUserId", "id");

-- CreateIndex
CREATE INDEX "Event_createdAt_idx" ON "Event"("createdAt");

-- CreateIndex
CREATE INDEX "Event_groupId_idx" ON "Event"("groupId");

-- CreateIndex
CREATE INDEX "ChangeRequest_projectId_environmentName_state_idx" ON "ChangeRequest"("projectId", "environmentName", "state");

-- CreateIndex
CREATE INDEX "ChangeRequest_createdByUserId_state_idx" ON "ChangeRequest"("createdByUserId", "state");

-- CreateIndex
CREATE INDEX "ChangeRequestChange_changeRequestId_idx" ON "ChangeRequestChange"("changeRequestId");

-- CreateIndex
CREATE INDEX "ChangeRequestChange_featureName_idx" ON "ChangeRequestChange"("featureName");

-- CreateIndex
CREATE INDEX "ChangeRequestComment_changeRequestId_idx" ON "ChangeRequestComment"("changeRequestId");

-- CreateIndex
CREATE INDEX "ChangeRequestSchedule_status_scheduledAt_idx" ON "ChangeRequestSchedule"("status", "scheduledAt");

-- CreateIndex
CREATE INDEX "AddonDelivery_status_nextAttemptAt_idx" ON "AddonDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "IntegrationEvent_addonId_id_idx" ON "IntegrationEvent"("addonId", "id");

-- AddForeignKey
ALTER TABLE "ProjectEnvironment" ADD CONSTRAINT "ProjectEnvironment_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProjectEnvironment" ADD CONSTRAINT "ProjectEnvironment_environmentName_fkey" FOREIGN KEY ("environmentName") REFERENCES "Environment"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Feature" ADD CONSTRAINT "Feature_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Feature" ADD CONSTRAINT "Feature_type_fkey" FOREIGN KEY ("type") REFERENCES "FeatureType"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Feature" ADD CONSTRAINT "Feature_createdByUserId_fkey" FOREIGN KEY ("createdByUserId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeatureEnvironment" ADD CONSTRAINT "FeatureEnvironment_featureName_fkey" FOREIGN KEY ("featureName") REFERENCES "Feature"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeatureEnvironment" ADD CONSTRAINT "FeatureEnvironment_environmentName_fkey" FOREIGN KEY ("environmentName") REFERENCES "Environment"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeatureStrategy" ADD CONSTRAINT "FeatureStrategy_featureName_fkey" FOREIGN KEY ("featureName") REFERENCES "Feature"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeatureStrategy" ADD CONSTRAINT "FeatureStrategy_featureName_environmentName_fkey" FOREIGN KEY ("featureName", "environmentName") REFERENCES "FeatureEnvironment"("featureName", "environmentName") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Segment" ADD CONSTRAINT "Segment_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeatureStrategySegment" ADD CONSTRAINT "FeatureStrategySegment_strategyId_fkey" FOREIGN KEY ("strategyId") REFERENCES "FeatureStrategy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeatureStrategySegment" ADD CONSTRAINT "FeatureStrategySegment_segmentId_fkey" FOREIGN KEY ("segmentId") REFERENCES "Segment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Tag" ADD CONSTRAINT "Tag_type_fkey" FOREIGN KEY ("type") REFERENCES "TagType"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeatureTag" ADD CONSTRAINT "FeatureTag_featureName_fkey" FOREIGN KEY ("featureName") REFERENCES "Feature"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeatureTag" ADD CONSTRAINT "FeatureTag_tagType_tagValue_fkey" FOREIGN KEY ("tagType", "tagValue") REFERENCES "Tag"("type", "value") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeatureDependency" ADD CONSTRAINT "FeatureDependency_parentName_fkey" FOREIGN KEY ("parentName") REFERENCES "Feature"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeatureDependency" ADD CONSTRAINT "FeatureDependency_childName_fkey" FOREIGN KEY ("childName") REFERENCES "Feature"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FavoriteFeature" ADD CONSTRAINT "FavoriteFeature_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FavoriteFeature" ADD CONSTRAINT "FavoriteFeature_featureName_fkey" FOREIGN KEY ("featureName") REFERENCES "Feature"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FavoriteProject" ADD CONSTRAINT "FavoriteProject_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FavoriteProject" ADD CONSTRAINT "FavoriteProject_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeatureLifecycle" ADD CONSTRAINT "FeatureLifecycle_featureName_fkey" FOREIGN KEY ("featureName") REFERENCES "Feature"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeatureMetricsHourly" ADD CONSTRAINT "FeatureMetricsHourly_featureName_fkey" FOREIGN KEY ("featureName") REFERENCES "Feature"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RolePermission" ADD CONSTRAINT "RolePermission_roleId_fkey" FOREIGN KEY ("roleId") REFERENCES "Role"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RolePermission" ADD CONSTRAINT "RolePermission_permissionName_fkey" FOREIGN KEY ("permissionName") REFERENCES "Permission"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProjectMember" ADD CONSTRAINT "ProjectMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProjectMember" ADD CONSTRAINT "ProjectMember_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProjectMember" ADD CONSTRAINT "ProjectMember_roleId_fkey" FOREIGN KEY ("roleId") REFERENCES "Role"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonalAccessToken" ADD CONSTRAINT "PersonalAccessToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserSession" ADD CONSTRAINT "UserSession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ResetToken" ADD CONSTRAINT "ResetToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PasswordHistory" ADD CONSTRAINT "PasswordHistory_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestSetting" ADD CONSTRAINT "ChangeRequestSetting_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequest" ADD CONSTRAINT "ChangeRequest_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestChange" ADD CONSTRAINT "ChangeRequestChange_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestApproval" ADD CONSTRAINT "ChangeRequestApproval_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestRejection" ADD CONSTRAINT "ChangeRequestRejection_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestComment" ADD CONSTRAINT "ChangeRequestComment_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestSchedule" ADD CONSTRAINT "ChangeRequestSchedule_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AddonDelivery" ADD CONSTRAINT "AddonDelivery_addonId_fkey" FOREIGN KEY ("addonId") REFERENCES "Addon"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IntegrationEvent" ADD CONSTRAINT "IntegrationEvent_addonId_fkey" FOREIGN KEY ("addonId") REFERENCES "Addon"("id") ON DELETE CASCADE ON UPDATE CASCADE;
