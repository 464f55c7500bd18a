import { costLimitRule } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import { GraphQLError, Lexer, Source, TokenKind, type ValidationContext, type ValidationRule } from "graphql";
import type { Plugin } from "graphql-yoga";
import { jsonDepth, MAX_JSON_DEPTH } from "../shared/http-body.ts";

/**
 * How big a GraphQL operation may be. The REST routes' own documents need at most depth 8 (Armor
 * counts a fragment spread as two levels), 221 tokens and cost 906 (test/rest/routes.test.ts checks
 * them against these limits), the test suite's ~300 documents depth 7, 2 aliases and cost 57,000;
 * these leave room for rich dashboard queries while bounding the work one request can ask for
 * (the 500-alias introspection attack of issue 12 needs 500 aliases and ~4,500 tokens).
 */
export const GRAPHQL_LIMITS = {
  /** Lexical tokens of the query text (counted before parsing). */
  tokens: 5000,
  /** Nesting of `{`, `[` and `(`: selection sets and input literals (counted before parsing). */
  nesting: 40,
  /** Selection depth, fragments expanded (introspection's own nesting not counted). */
  depth: 12,
  /** Aliased fields per operation (`__typename` free). */
  aliases: 30,
  /** Directives per operation. */
  directives: 20,
  /**
   * GraphQL Armor's cost estimate (objects 2, scalars 1, x1.5 per level, x a literal `first`):
   * one page of 1,000 events with every field costs ~57,000; a page nested in a page, ~10^8.
   */
  cost: 200_000,
};

export type GraphQLLimits = typeof GRAPHQL_LIMITS;

/** The error of every limit: a 400 (yoga reads `http.status`), code QUERY_TOO_COMPLEX. */
export function limitError(message: string): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: "QUERY_TOO_COMPLEX", http: { status: 400, spec: false } },
  });
}

/**
 * What is wrong with a query text before it is parsed: too many tokens, or brackets nested
 * too deep (a deep input literal or selection would otherwise recurse through the parser and
 * validation). Lexing stops at the first token past a limit. Null when it is fine.
 */
export function lexicalProblem(query: string, limits: GraphQLLimits = GRAPHQL_LIMITS): string | null {
  const lexer = new Lexer(new Source(query));
  let tokens = 0;
  let nesting = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      tokens += 1;
      if (tokens > limits.tokens) return `The query has more than ${limits.tokens} tokens.`;
      const kind = token.kind;
      if (kind === TokenKind.BRACE_L || kind === TokenKind.BRACKET_L || kind === TokenKind.PAREN_L) {
        nesting += 1;
        if (nesting > limits.nesting) return `The query nests brackets deeper than ${limits.nesting} levels.`;
      } else if (kind === TokenKind.BRACE_R || kind === TokenKind.BRACKET_R || kind === TokenKind.PAREN_R) {
        nesting -= 1;
      }
    }
  } catch {
    return null; // a syntax error: the parser reports it with its location
  }
  return null;
}

/**
 * GraphQL Armor's depth, alias, directive and cost rules, reporting their refusal as a
 * QUERY_TOO_COMPLEX validation error (Armor's own error would be an untyped "Syntax Error").
 */
export function armorRules(limits: GraphQLLimits = GRAPHQL_LIMITS): ValidationRule[] {
  const report = (context: ValidationContext | null, error: GraphQLError) => {
    context?.reportError(limitError(error.message.replace(/^Syntax Error: /, "")));
  };
  const common = { onReject: [report], propagateOnRejection: false };
  return [
    maxDepthRule({ n: limits.depth, ...common }),
    maxAliasesRule({ n: limits.aliases, ...common }),
    maxDirectivesRule({ n: limits.directives, ...common }),
    costLimitRule({ maxCost: limits.cost, ...common }),
  ];
}

/** What is wrong with an HTTP request's GraphQL parameters before parsing (null: fine). */
export function paramsProblem(
  params: { query?: unknown; variables?: unknown },
  limits: GraphQLLimits = GRAPHQL_LIMITS,
): string | null {
  if (typeof params.query === "string") {
    const problem = lexicalProblem(params.query, limits);
    if (problem) return problem;
  }
  if (jsonDepth(params.variables) > MAX_JSON_DEPTH) {
    return `The variables are nested deeper than ${MAX_JSON_DEPTH} levels.`;
  }
  return null;
}

/**
 * Bounds the work of one GraphQL operation on every transport (HTTP, SSE, WebSocket; REST's
 * own documents pass the same rules):
 * - parsing: the lexical check (tokens, nesting) runs first, so the parser never recurses
 *   deeply (HTTP requests are checked earlier still, see graphql-gate.ts, to answer 400);
 * - validation: GraphQL Armor's depth, alias, directive and cost limits, 400.
 */
export function useGraphQLLimits(limits: GraphQLLimits = GRAPHQL_LIMITS): Plugin {
  const rules = armorRules(limits);
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => {
        const problem = lexicalProblem(typeof source === "string" ? source : source.body, limits);
        if (problem) throw limitError(problem);
        return parseFn(source, options);
      });
    },
    onValidate({ addValidationRule }) {
      for (const rule of rules) addValidationRule(rule);
    },
  };
}
