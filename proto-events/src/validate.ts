import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './contract';

/**
 * One ajv instance for every schema; compiled validators are cached per schema object, so the
 * cost is paid once per process, not per message.
 */
const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false });
addFormats(ajv);

const cache = new WeakMap<JsonSchema, ValidateFunction>();

/**
 * Makes schemas available to `$ref` by their `$id` (e.g. a list referencing `media-item.v1.json`).
 * The catalogue registers every shared schema once at load.
 */
export function registerSchemas(schemas: JsonSchema[]): void {
  for (const s of schemas) {
    const id = s.$id;
    if (typeof id === 'string' && !ajv.getSchema(id)) ajv.addSchema(s);
  }
}

export interface ValidationResult {
  valid: boolean;
  /** Human-readable list of problems, e.g. "/userId must match format \"uuid\"". */
  errors: string[];
}

export function validate(schema: JsonSchema, value: unknown): ValidationResult {
  let fn = cache.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    cache.set(schema, fn);
  }
  if (fn(value)) return { valid: true, errors: [] };
  const errors = (fn.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`.trim());
  return { valid: false, errors };
}
