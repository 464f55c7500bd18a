import { GraphQLObjectType, isSchema } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../../src/generated/prisma/client.ts";
import { schema } from "../../src/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

// Tests import Vexil's code from a bundle (test/helpers/app-bundle.ts): what they import must be
// the very modules the app runs, and the npm packages the same copies.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("a test and the app share each module", () => {
  it("the schema a test imports is the one the app serves, made of the graphql a test imports", () => {
    expect(t.app.yoga.getEnveloped().schema).toBe(schema);
    expect(isSchema(schema)).toBe(true);
    expect(schema.getQueryType()).toBeInstanceOf(GraphQLObjectType);
  });

  it("the errors of the app's Prisma client are of the classes a test imports", async () => {
    await expect(t.database.prisma.$queryRawUnsafe("select * from no_such_table")).rejects.toBeInstanceOf(
      Prisma.PrismaClientKnownRequestError,
    );
  });
});
