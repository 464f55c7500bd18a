import { describe, expect, it } from "vitest";
import { isRecord, withoutNull } from "../../rest/shape.ts";

// The small wire-shape helpers of rest/shape.ts that REST answers are built with.
describe("withoutNull", () => {
  it("leaves out the listed keys that are null, keeping every other key in its place", () => {
    const shaped = withoutNull({ id: 1, conflict: null, payload: null, createdAt: "t" }, "conflict");
    expect(JSON.stringify(shaped)).toBe('{"id":1,"payload":null,"createdAt":"t"}');
    expect(JSON.stringify(withoutNull({ id: 1, conflict: "x", at: "t" }, "conflict"))).toBe(
      '{"id":1,"conflict":"x","at":"t"}',
    );
  });
});

describe("isRecord", () => {
  it("is true for a JSON object only", () => {
    expect([{}, { a: 1 }].map(isRecord)).toEqual([true, true]);
    expect([null, [], "s", 1, true, undefined].map(isRecord)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
