-- A flag's history rows are built by the application's read model (src/modules/flag-record,
-- embedded in each event's statement by time-travel/flag-history.write.ts): the database no
-- longer keeps its own copy of a flag's shape.
DROP FUNCTION IF EXISTS "vexil_flag_state"(text);
DROP FUNCTION IF EXISTS "vexil_environments_by_name"(jsonb);
