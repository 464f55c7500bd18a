import { GraphQLError, type ValidationRule } from "graphql";
import type { Plugin } from "graphql-yoga";
import { isSdkCredential, SDK_TOKEN_REFUSED } from "../modules/access/check.logic.ts";
import type { Principal } from "../modules/access/principal.types.ts";
import { AuthenticationRequired, type DomainError, ForbiddenOperation } from "../shared/errors.ts";
import { nulError, nulPath } from "../shared/text-input.ts";
import { limitError, paramsProblem } from "./graphql-limits.ts";

export type CallerOf = (request: Request) => Promise<{ principal: Principal | null; problem?: DomainError }>;

const STATUS_BY_CODE: Record<string, number> = { UNAUTHENTICATED: 401, FORBIDDEN: 403 };

/** A domain error as a GraphQL error with its code (and the HTTP status yoga answers with). */
function asGraphQLError(error: DomainError, status = STATUS_BY_CODE[error.code] ?? 400): GraphQLError {
  return new GraphQLError(error.message, {
    extensions: { code: error.code, details: error.details, http: { status, spec: false } },
  });
}

/**
 * The door of `/graphql` over HTTP, before anything is parsed: an operation over the lexical
 * limits is refused (400 QUERY_TOO_COMPLEX) without touching the database, then one without a
 * valid credential is refused (401 UNAUTHENTICATED, or 403 for a cookie without its CSRF
 * token). No root field is public, so an anonymous caller can make Vexil parse, validate or
 * execute nothing, introspection included. A client or frontend token, which may run no
 * root field either (they serve the SDK APIs only) and ships in browser apps, is refused the
 * same way (403 FORBIDDEN): no introspection of the admin schema. `callerOf` resolves the
 * credential once per request; the context reuses it.
 */
export function useGraphQLGate(callerOf: CallerOf): Plugin {
  return {
    async onParams({ params, request, setResult }) {
      const problem = paramsProblem(params);
      if (problem) return setResult({ errors: [limitError(problem)] });
      const caller = await callerOf(request);
      if (!caller.principal)
        setResult({ errors: [asGraphQLError(caller.problem ?? new AuthenticationRequired())] });
      else if (isSdkCredential(caller.principal))
        setResult({ errors: [asGraphQLError(new ForbiddenOperation(SDK_TOKEN_REFUSED))] });
    },
  };
}

/** Refuses string literals holding NUL (`"\u0000"` is a valid GraphQL escape). */
const noNulInLiterals: ValidationRule = (context) => ({
  StringValue(node) {
    if (node.value.includes("\u0000")) {
      const error = asGraphQLError(nulError(""));
      context.reportError(new GraphQLError(error.message, { nodes: [node], extensions: error.extensions }));
    }
  },
});

/**
 * PostgreSQL cannot store NUL in text: an operation whose literals or variables hold one is
 * refused as VALIDATION before it runs, on every transport. REST runs its routes through
 * `execute` with the request's values as variables, so its paths, query strings and bodies
 * are checked here too.
 */
export function useTextInputCheck(): Plugin {
  const refuse = (variables: unknown) => {
    const path = nulPath(variables);
    return path === null ? null : { errors: [asGraphQLError(nulError(path))] };
  };
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(noNulInLiterals);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const refusal = refuse(args.variableValues);
      if (refusal) setResultAndStopExecution(refusal);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const refusal = refuse(args.variableValues);
      if (refusal) setResultAndStopExecution(refusal);
    },
  };
}
