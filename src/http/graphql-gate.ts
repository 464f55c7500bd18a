import { GraphQLError, type ValidationRule } from "graphql";
import type { Plugin } from "graphql-yoga";
import { isSdkCredential, SDK_TOKEN_REFUSED } from "../modules/access/check.logic.ts";
import type { Principal } from "../modules/access/principal.types.ts";
import { AuthenticationRequired, type DomainError, ForbiddenOperation } from "../shared/errors.ts";
import { unstorableText, unstorableTextError } from "../shared/text-input.ts";
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
 * The door of `/graphql` over HTTP, before anything is parsed: a request without a valid
 * credential is refused before its body is read (401 UNAUTHENTICATED, or 403 for a cookie
 * without its CSRF token), then an operation over the lexical limits (400 QUERY_TOO_COMPLEX)
 * without touching the database. No root field is public, so an anonymous caller can make Vexil
 * parse, validate or execute nothing, introspection included. A client or frontend token, which
 * may run no root field either (they serve the SDK APIs only) and ships in browser apps, is
 * refused the same way (403 FORBIDDEN): no introspection of the admin schema. `callerOf`
 * resolves the credential once per request; the context reuses it.
 */
export function useGraphQLGate(callerOf: CallerOf): Plugin {
  return {
    // The body of a caller without a credential that works is never read: its operation is
    // empty (yoga's own checks pass it), and onParams answers it 401 (or 403) from its headers.
    async onRequestParse({ request, setRequestParser }) {
      if (request.method === "GET") return;
      if (!(await callerOf(request)).principal) setRequestParser(() => ({ query: "" }));
    },
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

/** Refuses string literals PostgreSQL cannot store (`"\u0000"`, `"\ud800"` are valid GraphQL escapes). */
const storableLiterals: ValidationRule = (context) => ({
  StringValue(node) {
    const problem = unstorableText(node.value);
    if (problem) {
      const error = asGraphQLError(unstorableTextError(problem));
      context.reportError(new GraphQLError(error.message, { nodes: [node], extensions: error.extensions }));
    }
  },
});

/**
 * PostgreSQL cannot store NUL or lone surrogates: an operation whose literals or variables hold one is
 * refused as VALIDATION before it runs, on every transport. REST runs its routes through
 * `execute` with the request's values as variables, so its paths, query strings and bodies
 * are checked here too.
 */
export function useTextInputCheck(): Plugin {
  const refuse = (variables: unknown) => {
    const problem = unstorableText(variables);
    return problem === null ? null : { errors: [asGraphQLError(unstorableTextError(problem))] };
  };
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(storableLiterals);
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
