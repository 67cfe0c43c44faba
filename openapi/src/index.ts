/**
 * @trove/openapi — the Trove HTTP contract (OpenAPI 3.0.3).
 *
 * `openapi.yaml` next to this package's `src`/`dist` folders is the single source of truth: the
 * gateway validates requests against it, the docs site renders it and tests check answers
 * against it. This module locates, parses and walks it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { components } from './generated/schema';

/** Absolute path of `openapi.yaml` (works from `src` under ts and from the compiled `dist`). */
export const openapiPath: string = path.resolve(__dirname, '..', 'openapi.yaml');

/** How an operation is authenticated: `bearer` is a user's bearer token or API key (`X-Api-Key`). */
export type OperationSecurity = 'none' | 'bearer' | 'basic' | 'bearerOrSigned';

export interface OpenApiOperation {
  /** Lower-case HTTP method: `get`, `post`, `put`, `delete`, … */
  method: string;
  /** Path template exactly as in the document, e.g. `/v1/mediaItems/{id}`. */
  path: string;
  operationId: string;
  security: OperationSecurity;
  /** The features a user needs for this call (`x-trove-feature`), absent when the call is not gated. */
  feature?: FeatureGate;
}

/**
 * `x-trove-feature: albums` or `[explore, places]` on an operation: the user features it needs. What the call does
 * when one is off is `x-trove-feature-off`: `forbidden` (403, the default) or `empty` (an empty list).
 */
export interface FeatureGate {
  needs: string[];
  whenOff: 'forbidden' | 'empty';
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type SecurityRequirement = Record<string, string[]>;

let cached: Record<string, unknown> | undefined;

function parsed(): Record<string, unknown> {
  if (!cached) {
    const doc: unknown = parse(readFileSync(openapiPath, 'utf8'));
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
      throw new Error(`${openapiPath} does not contain an OpenAPI document`);
    }
    cached = doc as Record<string, unknown>;
  }
  return cached;
}

/**
 * The parsed OpenAPI document. The file is read and parsed once; every call returns a fresh deep
 * copy, so callers (e.g. express-openapi-validator, which rewrites the schemas it is given) may
 * mutate the result without affecting anyone else.
 */
export function loadOpenApi(): Record<string, unknown> {
  return structuredClone(parsed());
}

/** `info.version` — the API version implemented by this contract, e.g. `24.06.24`. */
export function apiVersion(): string {
  const info = parsed().info as { version?: unknown } | undefined;
  return String(info?.version ?? '');
}

/** Classifies a list of alternative security requirements (OpenAPI `security`). */
export function classifySecurity(requirements: SecurityRequirement[] | undefined): OperationSecurity {
  if (!requirements || requirements.length === 0) return 'none';
  const alternatives = requirements.map((r) => Object.keys(r).sort().join('+'));
  if (alternatives.some((a) => a === '')) return 'none'; // `{}` makes authentication optional
  const set = new Set(alternatives);
  const is = (...names: string[]): boolean => set.size === names.length && names.every((n) => set.has(n));
  // a user's call takes a bearer token or an API key, always both: a call for one but not the other is a mistake
  if (is('bearerAuth', 'apiKey')) return 'bearer';
  if (is('basicAuth')) return 'basic';
  if (is('bearerAuth', 'apiKey', 'signedUrl')) return 'bearerOrSigned';
  throw new Error(`unsupported security requirement: ${JSON.stringify(requirements)}`);
}

/** An operation's `x-trove-feature` / `x-trove-feature-off`, checked for shape (the names are the gateway's to check). */
export function featureGateOf(op: Record<string, unknown>, where: string): FeatureGate | undefined {
  const declared = op['x-trove-feature'];
  const whenOff = op['x-trove-feature-off'] ?? 'forbidden';
  if (declared === undefined) {
    if (op['x-trove-feature-off'] !== undefined)
      throw new Error(`${where}: x-trove-feature-off without x-trove-feature`);
    return undefined;
  }
  const needs = typeof declared === 'string' ? [declared] : declared;
  if (!Array.isArray(needs) || needs.length === 0 || !needs.every((n) => typeof n === 'string' && n !== '')) {
    throw new Error(`${where}: x-trove-feature must be a feature name or a non-empty list of them`);
  }
  if (whenOff !== 'forbidden' && whenOff !== 'empty')
    throw new Error(`${where}: x-trove-feature-off must be forbidden or empty`);
  return { needs: needs as string[], whenOff };
}

let operations: OpenApiOperation[] | undefined;

/** Every operation declared in the document, in document order. */
export function listOperations(): OpenApiOperation[] {
  if (!operations) {
    const doc = parsed();
    const globalSecurity = doc.security as SecurityRequirement[] | undefined;
    const paths = (doc.paths ?? {}) as Record<string, Record<string, unknown>>;
    const found: OpenApiOperation[] = [];
    for (const [p, item] of Object.entries(paths)) {
      for (const method of HTTP_METHODS) {
        const op = item[method] as
          ({ operationId?: string; security?: SecurityRequirement[] } & Record<string, unknown>) | undefined;
        if (!op) continue;
        if (!op.operationId) throw new Error(`${method.toUpperCase()} ${p} has no operationId`);
        const feature = featureGateOf(op, `${method.toUpperCase()} ${p}`);
        found.push({
          method,
          path: p,
          operationId: op.operationId,
          security: classifySecurity(op.security ?? globalSecurity),
          ...(feature && { feature }),
        });
      }
    }
    operations = found;
  }
  return operations.map((o) => ({ ...o }));
}

type SchemaName = keyof components['schemas'];

/**
 * The property names of `components.schemas[name]`, in the document's order: answers show their
 * fields in this order, requests are picked down to them (unknown fields are never forwarded).
 */
export function schemaProperties<N extends SchemaName>(name: N): Array<keyof components['schemas'][N] & string> {
  const schemas = (
    parsed().components as { schemas?: Record<string, { properties?: Record<string, unknown> }> } | undefined
  )?.schemas;
  const properties = schemas?.[name]?.properties;
  if (!properties) throw new Error(`openapi.yaml has no object schema ${name}`);
  return Object.keys(properties) as Array<keyof components['schemas'][N] & string>;
}

/**
 * The query parameters the contract gives a default value, which the gateway's validator fills
 * in: after validation a handler always has them. A name here has a default in every operation
 * that takes it (a test holds this list to openapi.yaml), so types can be derived per name.
 */
export const QUERY_PARAMETERS_WITH_DEFAULT = ['page', 'limit', 'sort', 'hidden'] as const;
export type QueryParameterWithDefault = (typeof QUERY_PARAMETERS_WITH_DEFAULT)[number];

/**
 * The contract as TypeScript types, generated from openapi.yaml by openapi-typescript
 * (`npm run generate -w openapi`; a test fails when they are stale). Gateway, web app and the
 * e2e client all type themselves from these: `components['schemas']['MediaItem']`,
 * `operations['listMediaItems']`, `paths['/v1/mediaItems']`.
 */
export type { components, operations, paths } from './generated/schema';
