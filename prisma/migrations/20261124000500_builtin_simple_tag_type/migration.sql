-- Unleash ships the tag type `simple`; scripts written for Unleash tag flags with it.
INSERT INTO "TagType" ("name", "description", "icon", "createdAt")
VALUES ('simple', 'Used to simplify filtering of features', '#', CURRENT_TIMESTAMP)
ON CONFLICT ("name") DO NOTHING;
