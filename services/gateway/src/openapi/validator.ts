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
