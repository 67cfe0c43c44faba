/**
 * openapi.yaml walked for the security checks: which calls need a bearer token, which name a
 * resource in their path or body, and requests the contract accepts for each of them (a concrete
 * URL, a valid JSON body, a body with every field of the wrong type), built from the document's
 * parameters, schemas and examples. A call added to the file is in every check at once.
 */
import { listOperations, loadOpenApi } from '@trove/openapi';
import type { OpenApiOperation } from '@trove/openapi';

export type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  example?: unknown;
  default?: unknown;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  nullable?: boolean;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  oneOf?: Schema[];
  allOf?: Schema[];
};
export type Parameter = {
  $ref?: string;
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
  example?: unknown;
};
type Operation = {
  parameters?: Parameter[];
  requestBody?: { $ref?: string; content?: Record<string, { schema?: Schema }> };
};

const doc = loadOpenApi() as { paths: Record<string, Record<string, unknown> & { parameters?: Parameter[] }> };

/** Follows a local `$ref` (`#/components/...`) to what it names. */
export function resolve<T extends { $ref?: string }>(node: T): T {
  let current: T = node;
  while (current.$ref) {
    const target = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], doc);
    if (!target) throw new Error(`openapi.yaml: unresolved ${current.$ref}`);
    current = target as T;
  }
  return current;
}

function operationObject(op: OpenApiOperation): Operation {
  return doc.paths[op.path]![op.method] as Operation;
}

export function parametersOf(op: OpenApiOperation): Parameter[] {
  return [...(doc.paths[op.path]!.parameters ?? []), ...(operationObject(op).parameters ?? [])].map((p) => resolve(p));
}

/** The literal path segment before each `{param}`: what the parameter names, e.g. `albums` for `/v1/albums/{id}`. */
const RESOURCE_PARAM = /\/([A-Za-z]+)\/\{(id|[A-Za-z]+Id)\}/g;

export interface ResourceCall extends OpenApiOperation {
  /** The kind of resource its path names, as the collection's path segment: `mediaItems`, `albums`, `jobs`, … */
  kind: string;
}

/** Calls that need a user's bearer token (content calls too: a token or a signed URL). */
export function bearerCalls(): OpenApiOperation[] {
  return listOperations().filter((o) => o.security === 'bearer' || o.security === 'bearerOrSigned');
}

/**
 * The kind of resource a path names (`albums` for `/v1/albums/{id}/mediaItems`), if any: the last
 * one where it names several, the resource acted on (`faces` for
 * `/v1/explore/people/{id}/faces/{faceId}`, a face of that person).
 */
export function kindOfPath(path: string): string | undefined {
  return [...path.matchAll(RESOURCE_PARAM)].map((m) => m[1]!).at(-1);
}

/** The kind each resource parameter of a path names: `{ id: 'people', faceId: 'faces' }`. */
function kindsOfParameters(path: string): Map<string, string> {
  return new Map([...path.matchAll(RESOURCE_PARAM)].map((m) => [m[2]!, m[1]!]));
}

/** Path parameters of bearer calls that name no resource (`monthDate`): each must be reviewed, since the matrix does not attack through them. */
export function otherPathParameters(): string[] {
  const names = bearerCalls().flatMap((op) => [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!));
  return [...new Set(names.filter((n) => !/^(id|[A-Za-z]+Id)$/.test(n)))].sort();
}

/** Bearer calls whose path names one of the user's resources (`/v1/<kind>/{id}`). */
export function resourceCalls(): ResourceCall[] {
  return bearerCalls().flatMap((op) => {
    const kind = kindOfPath(op.path);
    return kind ? [{ ...op, kind }] : [];
  });
}

/** A value the contract accepts for a schema: its example, default or first enum value, else one of its type. */
export function sample(schema: Schema | undefined, name: string): unknown {
  const s = schema ? resolve(schema) : {};
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum[0];
  switch (s.type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [sample(s.items, name)];
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sample(v, k)]));
    default:
      return `sample ${name}`;
  }
}

/**
 * The URL path (and required query) of a call: `id` for the parameter naming the resource acted on
 * (`{id}`), `idOf(kind)` (else `id`) for those naming the resources around it (the person of
 * `/people/{id}/faces/{faceId}`), the contract's example for the others (`{monthDate}` → `0624`,
 * `?q=beach`).
 */
export function urlFor(op: OpenApiOperation, id?: string, idOf?: (kind: string) => string | undefined): string {
  let url = op.path;
  const query = new URLSearchParams();
  const kinds = kindsOfParameters(op.path);
  const actedOn = kindOfPath(op.path);
  for (const p of parametersOf(op)) {
    const kind = kinds.get(p.name);
    const value =
      p.in === 'path' && /^(id|[A-Za-z]+Id)$/.test(p.name) && id !== undefined
        ? ((kind !== actedOn && kind ? idOf?.(kind) : undefined) ?? id)
        : String(p.example ?? sample(p.schema, p.name));
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(value));
    else if (p.in === 'query' && p.required) query.set(p.name, value);
  }
  return query.size ? `${url}?${query}` : url;
}

export function jsonBodySchema(op: OpenApiOperation): Schema | undefined {
  const body = operationObject(op).requestBody;
  const schema = body ? resolve(body).content?.['application/json']?.schema : undefined;
  return schema ? resolve(schema) : undefined;
}

/** Whether the call takes a JSON body (the upload takes multipart). */
export function takesJson(op: OpenApiOperation): boolean {
  return jsonBodySchema(op) !== undefined;
}

/** Which kind of resource a body field refers to, from its name; undefined when the name says nothing known. */
export function referencedKind(field: string): string | undefined {
  if (/mediaItem/i.test(field)) return 'mediaItems';
  if (/album/i.test(field)) return 'albums';
  if (/job/i.test(field)) return 'jobs';
  if (/place/i.test(field)) return 'places';
  if (/thing/i.test(field)) return 'things';
  if (/person|people/i.test(field)) return 'people';
  return undefined;
}

export function isUuid(schema: Schema | undefined): boolean {
  return schema !== undefined && resolve(schema).format === 'uuid';
}

/** Top-level body fields holding resource ids (a uuid, or an array of them), by name. */
export function idFieldsOfBody(op: OpenApiOperation): string[] {
  const properties = jsonBodySchema(op)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, s]) => isUuid(s) || (resolve(s).type === 'array' && isUuid(resolve(s).items)))
    .map(([name]) => name);
}

/**
 * A JSON body the contract accepts for the call (undefined when it takes none): every field it
 * declares, with its example, except resource ids, which `idOf(kind)` gives (the ids the test
 * means: the caller's own, someone else's, or ones that do not exist).
 */
export function validBody(
  op: OpenApiOperation,
  idOf: (kind: string, field: string) => string,
): Record<string, unknown> | undefined {
  const schema = jsonBodySchema(op);
  if (!schema) return undefined;
  const ids = new Set(idFieldsOfBody(op));
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, s]) => {
      if (!ids.has(name)) return [name, sample(s, name)];
      const kind = referencedKind(name);
      if (!kind)
        throw new Error(
          `${op.operationId}: body field ${name} holds ids of an unknown kind; teach referencedKind in e2e/security/contract.ts`,
        );
      const id = idOf(kind, name);
      return [name, resolve(s).type === 'array' ? [id] : id];
    }),
  );
}

/** A body with every declared field of the wrong JSON type (strings become numbers, the rest strings). */
export function wrongTypesBody(op: OpenApiOperation): Record<string, unknown> | undefined {
  const schema = jsonBodySchema(op);
  if (!schema) return undefined;
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, s]) => [
      name,
      resolve(s).type === 'string' ? 12345 : 'not-of-this-type',
    ]),
  );
}
