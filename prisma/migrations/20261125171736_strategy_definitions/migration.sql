-- CreateTable
CREATE TABLE "StrategyDefinition" (
    "name" TEXT NOT NULL,
    "displayName" TEXT,
    "title" TEXT,
    "description" TEXT,
    "builtIn" BOOLEAN NOT NULL DEFAULT false,
    "deprecated" BOOLEAN NOT NULL DEFAULT false,
    "parameters" JSONB NOT NULL DEFAULT '[]',
    "sortOrder" INTEGER NOT NULL DEFAULT 9999,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StrategyDefinition_pkey" PRIMARY KEY ("name")
);

-- The built-in strategy types, as Unleash 8 defines them.
INSERT INTO "StrategyDefinition" ("name", "displayName", "description", "builtIn", "parameters", "sortOrder") VALUES
  ('default', 'Standard', 'This strategy turns on / off for your entire userbase. Prefer using "Gradual rollout" strategy (100%=on, 0%=off).', true, '[]', 0),
  ('flexibleRollout', 'Gradual rollout', 'Roll out to a percentage of your userbase, and ensure that the experience is the same for the user on each visit.', true,
   '[{"name":"rollout","type":"percentage","description":"","required":false},{"name":"stickiness","type":"string","description":"Used define stickiness. Possible values: default, userId, sessionId, random","required":true},{"name":"groupId","type":"string","description":"Used to define a activation groups, which allows you to correlate across feature flags.","required":true}]', 1),
  ('userWithId', 'UserIDs', 'Enable the feature for a specific set of userIds.', true,
   '[{"name":"userIds","type":"list","description":"","required":false}]', 2),
  ('remoteAddress', 'IPs', 'Enable the feature for a specific set of IP addresses.', true,
   '[{"name":"IPs","type":"list","description":"List of IPs to enable the feature flag for.","required":true}]', 3),
  ('applicationHostname', 'Hosts', 'Enable the feature for a specific set of hostnames.', true,
   '[{"name":"hostNames","type":"list","description":"List of hostnames to enable the feature flag for.","required":false}]', 4);
