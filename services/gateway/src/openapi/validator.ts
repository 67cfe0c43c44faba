import { createRequire } from 'node:module';
import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import { loadOpenApi } from '@trove/openapi';

/**
 * Request validation against openapi.yaml: path, query and body, each error naming the field
 * (`request/params/id must match format "uuid"`). Unknown query parameters are refused; unknown
 * body fields pass (the request schemas allow them) and routes pick only the fields they know.
 * Security is not checked here: `authenticate` did it from the same file, before validation.
 * With `validateResponses` every JSON answer is checked too and one breaking the file becomes a 500.
 * The raw query string is checked by queryStringCheck (http/query-string.ts) instead of the
 * validator's reserved-character check, which refused `+`, the form encoding of a space.
 */
export function openApiValidator(opts: { validateResponses: boolean }): RequestHandler[] {
  rememberRouteMatchers();
  // The validator rewrites the document it is given: loadOpenApi() hands out a private copy.
  const doc = loadOpenApi();
  allowReservedInQueries(doc);
  const spec = doc as unknown as Parameters<typeof OpenApiValidator.middleware>[0]['apiSpec'];
  return OpenApiValidator.middleware({
    apiSpec: spec,
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses: opts.validateResponses,
    validateSecurity: false,
    // Uploads are streamed by their own route, not buffered by the validator.
    fileUploader: false,
  });
}

interface ParameterObject {
  in?: unknown;
  allowReserved?: boolean;
}

/** Marks every query parameter (an operation's, a path's, or a shared one) `allowReserved`. */
function allowReservedInQueries(doc: Record<string, unknown>): void {
  const mark = (params: unknown): void => {
    for (const p of Array.isArray(params)
      ? (params as ParameterObject[])
      : Object.values((params ?? {}) as Record<string, ParameterObject>)) {
      if (p && typeof p === 'object' && p.in === 'query') p.allowReserved = true;
    }
  };
  mark((doc.components as { parameters?: unknown } | undefined)?.parameters);
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, { parameters?: unknown }>>)) {
    mark(item.parameters);
    for (const operation of Object.values(item))
      if (operation && typeof operation === 'object') mark(operation.parameters);
  }
}

type PathToRegexp = (path: string, options?: { sensitive?: boolean; strict?: boolean }) => unknown;

/** More route patterns than openapi.yaml has paths: beyond it, patterns are compiled each time again. */
const MATCHERS_KEPT = 1000;

/**
 * express-openapi-validator (5.6) finds a request's operation by compiling, on every request, each
 * path's pattern with path-to-regexp until one matches: up to 55 compiles of ~8 µs, 0.1–0.4 ms of the
 * gateway's CPU per call (upstream: cdimascio/express-openapi-validator#1217, not released). Its
 * path-to-regexp's compile is remembered here by pattern and options; what it answers (a RegExp without
 * the `g` flag, which keeps no state between matches, and the parameters' names) is only read.
 */
function rememberRouteMatchers(): void {
  const pathToRegexpModule = createRequire(require.resolve('express-openapi-validator'))('path-to-regexp') as {
    pathToRegexp: PathToRegexp & { remembered?: true };
  };
  const compile = pathToRegexpModule.pathToRegexp;
  if (compile.remembered) return;
  const matchers = new Map<string, unknown>();
  const remembered: PathToRegexp & { remembered?: true } = (path, options) => {
    if (typeof path !== 'string') return compile(path, options);
    const key = `${String(options?.sensitive)} ${String(options?.strict)} ${path}`;
    let matcher = matchers.get(key);
    if (matcher === undefined) {
      matcher = compile(path, options);
      if (matchers.size < MATCHERS_KEPT) matchers.set(key, matcher);
    }
    return matcher;
  };
  remembered.remembered = true;
  pathToRegexpModule.pathToRegexp = remembered;
}
