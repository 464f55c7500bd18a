import { z } from "zod";
import {
  dependencyPayload,
  environmentVariantsPayload,
  flagPayload,
  strategyPayload,
  tagPayload,
} from "../../events/payloads.ts";

/**
 * The one definition of a flag's configuration: the flag, its state in every environment of
 * its project (on/off, variants, strategies in evaluation order), its tags and the parents it
 * depends on. `flag-record.read.ts` builds it in one SQL statement; every other shape of a flag
 * (the SDK document, the export document, the past flag of time travel and its history rows,
 * event payloads) is a pure mapping of it, and test/flags/read-model.test.ts checks that each
 * agrees with it. Its parts are the event catalogue's payload shapes, so what an event records
 * of a flag or a strategy is this record's field for field.
 */
export const flagRecordStrategySchema = strategyPayload.strict();

export const flagRecordEnvironmentSchema = z.strictObject({
  name: z.string(),
  enabled: z.boolean(),
  variants: environmentVariantsPayload.shape.variants,
  strategies: z.array(flagRecordStrategySchema),
});

export const flagRecordSchema = flagPayload.strict().extend({
  environments: z.array(flagRecordEnvironmentSchema),
  tags: z.array(tagPayload.strict()),
  dependencies: z.array(dependencyPayload.strict().extend({ variants: z.array(z.string()) })),
});

export type FlagRecord = z.infer<typeof flagRecordSchema>;
export type FlagRecordEnvironment = z.infer<typeof flagRecordEnvironmentSchema>;
export type FlagRecordStrategy = z.infer<typeof flagRecordStrategySchema>;

/** The flag's state in `environment` (a project environment it has no row for: off, empty). */
export function environmentOf(record: FlagRecord, environment: string): FlagRecordEnvironment {
  return (
    record.environments.find((e) => e.name === environment) ?? {
      name: environment,
      enabled: false,
      variants: [],
      strategies: [],
    }
  );
}

/**
 * The fields of a GraphQL type that serves record part `R`: one per field of `R`, under its own
 * name or the one `Renamed` gives it, and no other. A type's field map `satisfies` it, so a field
 * added to the record does not compile until the type serves it.
 */
export type Serves<R, Renamed extends Partial<Record<keyof R, string>> = Record<never, string>> = {
  [K in keyof R as K extends keyof Renamed ? NonNullable<Renamed[K]> : K]-?: unknown;
};
