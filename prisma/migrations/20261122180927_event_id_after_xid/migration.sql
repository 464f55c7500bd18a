-- Event ids are drawn by a function that first makes sure the transaction holds an xid, so the
-- committed horizon (src/events/horizon.ts) can rely on "an xid before the id" without a
-- separate statement per write. The ids continue where the column's own sequence stopped.
CREATE SEQUENCE "vexil_event_id";
SELECT setval('"vexil_event_id"', last_value, is_called) FROM "Event_id_seq";

CREATE FUNCTION "vexil_next_event_id"() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  -- Assigns the xid now if the transaction has none yet (it has written nothing).
  PERFORM pg_current_xact_id();
  RETURN nextval('"vexil_event_id"');
END
$$;

-- AlterTable
ALTER TABLE "Event" ALTER COLUMN "id" SET DEFAULT vexil_next_event_id();
DROP SEQUENCE "Event_id_seq";

-- Steps 1 and 2 of the committed horizon (src/events/horizon.ts) in one call, in that order:
-- the last id drawn, then the xids of this database's running transactions.
CREATE FUNCTION "vexil_event_horizon"(OUT "lastId" bigint, OUT "runningXids" text[])
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  "lastId" := pg_sequence_last_value('"vexil_event_id"'::regclass);
  "runningXids" := array(SELECT backend_xid::text FROM pg_stat_activity
                          WHERE datname = current_database() AND backend_xid IS NOT NULL);
END
$$;
