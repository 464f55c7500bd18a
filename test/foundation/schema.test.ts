import { isEnumType, isInputObjectType, isInterfaceType, isIntrospectionType, isObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/schema.ts";

const BUILT_IN = new Set(["String", "Int", "Float", "Boolean", "ID"]);

describe("the printed schema is the reference", () => {
  it("describes every type, field, argument and enum value", () => {
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (isIntrospectionType(type) || BUILT_IN.has(type.name)) continue;
      if (!type.description) missing.push(type.name);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) missing.push(`${type.name}.${field.name}`);
          for (const arg of "args" in field ? field.args : []) {
            if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
          }
        }
      }
      if (isEnumType(type)) {
        for (const value of type.getValues()) {
          if (!value.description && !/^[A-Z_]+$/.test(value.name)) missing.push(`${type.name}.${value.name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
