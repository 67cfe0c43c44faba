import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import { loadOpenApi } from '@trove/openapi';

/**
 * Request validation against openapi.yaml: path, query and body, each error naming the field
 * (`request/params/id must match format "uuid"`). Unknown query parameters are refused; unknown
 * body fields pass (the request schemas allow them) and routes pick only the fields they know.
 * Security is not checked here: `authenticate` did it from the same file, before validation.
 * With `validateResponses` every JSON answer is checked too and one breaking the file becomes a 500.
 */
export function openApiValidator(opts: { validateResponses: boolean }): RequestHandler[] {
  // The validator rewrites the document it is given: loadOpenApi() hands out a private copy.
  const spec = loadOpenApi() as unknown as Parameters<typeof OpenApiValidator.middleware>[0]['apiSpec'];
  return OpenApiValidator.middleware({
    apiSpec: spec,
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses: opts.validateResponses,
    validateSecurity: false,
    // Uploads are streamed by their own route, not buffered by the validator.
    fileUploader: false,
  });
}
