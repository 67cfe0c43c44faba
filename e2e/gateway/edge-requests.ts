/**
 * Requests at the edges of what openapi.yaml accepts, one field or parameter at a time, the rest as the contract's
 * examples: each string at its shortest and longest (counted in code points, as the contract counts them, also in
 * characters outside the Basic Multilingual Plane), with NUL, control and bidi characters where no pattern refuses
 * them; dates at the ends of the calendar and on a leap second; ids in every form the `uuid` format takes; numbers at
 * their bounds; `null` where nullable; every enum value; arrays empty, full and with repeats. An independent client
 * written against the contract may send any of them, so each must get the contract's answer, never a 5xx.
 */
import { randomUUID } from 'node:crypto';
import type { OpenApiOperation } from '@trove/openapi';
import { jsonBodySchema, parametersOf, resolve, sample, urlFor } from '../security/contract';
import type { Schema } from '../security/contract';

export interface EdgeRequest {
  /** What is at its edge, e.g. `body.name: 255 × 😀`. */
  what: string;
  /** The contract's maxLength or maxItems the value is at: a refusal naming it refuses what the contract allows. */
  bound?: number;
  url: string;
  body?: unknown;
}

/** Gives an id for a uuid field or parameter by its name (the caller's own resource where it has one). */
export type IdFor = (name: string) => string;

/** A labelled value; `bound`: the contract's own maxLength or maxItems when the value is at it. */
type Edge = [what: string, value: unknown, bound?: number];

/** When no maxLength bounds a string: long, yet under the gateway's JSON body limit. */
const UNBOUNDED_STRING = 2000;
/** When no maxItems bounds an array: as many as the contract's batch calls take. */
const UNBOUNDED_ARRAY = 1000;

const codePoints = (s: string): number => [...s].length;

/** `unit` repeated to exactly `n` code points. */
function repeated(unit: string, n: number): string {
  const chars = [...unit];
  return Array.from({ length: n }, (_, i) => chars[i % chars.length]).join('');
}

/** Strings worth sending, before the schema's length and pattern filter them. */
function stringCandidates(s: Schema): Edge[] {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? UNBOUNDED_STRING;
  const edges: Edge[] = [
    [`${min} × a (shortest)`, repeated('a', min)],
    [`${max} × x (longest)`, repeated('x', max), s.maxLength],
    [`${max} × 😀 (longest, outside the BMP)`, repeated('😀', max), s.maxLength],
    [`${max} × é as e + combining accent`, repeated('e\u0301', max)],
    ['a family emoji (a ZWJ sequence)', '👩‍👩‍👧‍👦'],
    ['a NUL inside', 'before\u0000after'],
    ['control characters', 'tab\there\r\nnewline\u0007bell'],
    ['a right-to-left override', 'photo\u202egpj.exe'],
    ['spaces around', '  padded  '],
    ['only spaces', '   '],
    ['markup', '<img src=x onerror=alert(1)>'],
    ['a path', '../../etc/passwd'],
    ['SQL', "x'); DROP TABLE items; --"],
    ['a Mongo operator', '{"$gt": ""}'],
    ['a lone surrogate escaped in JSON', 'half \ud83d of an emoji'],
    ['digits', '0229'],
    ['digits', '1231'],
    ['a year and month', '2024-02'],
    ['far years', '9999-12'],
    ['a digest', 'f'.repeat(64)],
    ['a name', 'ann.o_k-9'],
  ];
  if (typeof s.example === 'string') {
    // The example, and as many of it as fit, comma-separated: a list in one string (`places,places,…`).
    const many = Array.from({ length: Math.floor((max + 1) / (s.example.length + 1)) }, () => s.example).join(',');
    edges.push(['the example', s.example], [`the example ${many.split(',').length} times`, many]);
  }
  const pattern = s.pattern !== undefined ? new RegExp(s.pattern, 'u') : undefined;
  return edges.filter(([, v]) => {
    const text = v as string;
    const n = codePoints(text);
    return n >= min && n <= max && (!pattern || pattern.test(text));
  });
}

function stringEdges(s: Schema, name: string, idFor: IdFor): Edge[] {
  switch (s.format) {
    case 'uuid': {
      const id = idFor(name);
      return [
        ['the id', id],
        ['the id in capitals', id.toUpperCase()],
        ['the id as a URN (the uuid format takes it)', `urn:uuid:${id}`],
        ['the nil uuid', '00000000-0000-0000-0000-000000000000'],
        ['an unknown id', randomUUID()],
      ];
    }
    case 'date-time':
      return [
        ['the epoch', '1970-01-01T00:00:00Z'],
        ['year 1', '0001-01-01T00:00:00Z'],
        ['year 9999', '9999-12-31T23:59:59.999Z'],
        ['a leap second', '2016-12-31T23:59:60Z'],
        ['29 February, +14:00', '2024-02-29T12:00:00+14:00'],
        ['nanoseconds, -12:00', '2024-06-01T12:00:00.123456789-12:00'],
        ['lower-case t and z', '2024-06-01t12:00:00z'],
      ].filter(([, v]) => !s.pattern || new RegExp(s.pattern, 'u').test(v!)) as Edge[];
    case 'date':
      return [
        ['year 1', '0001-01-01'],
        ['year 9999', '9999-12-31'],
        ['29 February', '2024-02-29'],
      ];
    default:
      return stringCandidates(s);
  }
}

function numberEdges(s: Schema): Edge[] {
  const integer = s.type === 'integer';
  const step = integer ? 1 : Number.EPSILON;
  const low = s.minimum === undefined ? undefined : s.exclusiveMinimum ? s.minimum + step : s.minimum;
  const high = s.maximum === undefined ? undefined : s.exclusiveMaximum ? s.maximum - step : s.maximum;
  const int32 = s.format === 'int32';
  const edges: Edge[] = [
    ['the least', low ?? (int32 ? -(2 ** 31) : integer ? Number.MIN_SAFE_INTEGER : -Number.MAX_VALUE)],
    ['the most', high ?? (int32 ? 2 ** 31 - 1 : integer ? Number.MAX_SAFE_INTEGER : Number.MAX_VALUE)],
    ['zero', 0],
    ['minus one', -1],
  ];
  if (!integer) edges.push(['a tiny fraction', Number.MIN_VALUE], ['a half', 0.5]);
  return edges.filter(
    ([, v]) => (low === undefined || (v as number) >= low) && (high === undefined || (v as number) <= high),
  );
}

function arrayEdges(s: Schema, name: string, idFor: IdFor): Edge[] {
  const items = resolve(s.items ?? {});
  const one = () => sampleOf(items, name, idFor);
  const min = s.minItems ?? 0;
  const max = s.maxItems ?? UNBOUNDED_ARRAY;
  // The full array: distinct ids where the items are ids (repeats are their own case).
  const full = Array.from({ length: max }, (_, i) =>
    items.format === 'uuid' ? (i === 0 ? idFor(name) : randomUUID()) : one(),
  );
  const edges: Edge[] = [
    [`${min} items (fewest)`, Array.from({ length: min }, one)],
    [`${max} items (most)`, full, s.maxItems],
  ];
  if (!s.uniqueItems && max >= 2) edges.push(['one item twice', [one(), one()]]);
  for (const [what, value] of valueEdges(items, name, idFor).slice(0, 12)) {
    if (min <= 1 && max >= 1) edges.push([`[${what}]`, [value]]);
  }
  return edges;
}

/** A value the contract takes for the schema, ids from `idFor`. */
function sampleOf(s: Schema, name: string, idFor: IdFor): unknown {
  const r = resolve(s);
  if (r.format === 'uuid') return idFor(name);
  if (r.type === 'object' || r.properties) return objectSample(r, idFor);
  if (r.type === 'array') return [sampleOf(r.items ?? {}, name, idFor)];
  if (r.oneOf?.length) return sampleOf(r.oneOf[0]!, name, idFor);
  // A string its pattern takes when the contract gives no example (a digest).
  if (r.type === 'string' && r.pattern && r.example === undefined)
    return stringCandidates(r)[0]?.[1] ?? sample(r, name);
  return sample(r, name);
}

function objectSample(s: Schema, idFor: IdFor): Record<string, unknown> {
  return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sampleOf(v, k, idFor)]));
}

/** The edge values of one schema, labelled. */
export function valueEdges(schema: Schema, name: string, idFor: IdFor): Edge[] {
  const s = resolve(schema);
  const edges: Edge[] = s.nullable ? [['null', null]] : [];
  if (s.oneOf) {
    s.oneOf.forEach((branch, i) =>
      edges.push(...valueEdges(branch, name, idFor).map(([w, v, b]): Edge => [`one of #${i + 1}: ${w}`, v, b])),
    );
    return edges;
  }
  if (s.enum) return [...edges, ...s.enum.filter((v) => v !== null).map((v): Edge => [JSON.stringify(v), v])];
  if (s.type === 'string') return [...edges, ...stringEdges(s, name, idFor)];
  if (s.type === 'integer' || s.type === 'number') return [...edges, ...numberEdges(s)];
  if (s.type === 'boolean') return [...edges, ['true', true], ['false', false]];
  if (s.type === 'array') return [...edges, ...arrayEdges(s, name, idFor)];
  if (s.type === 'object' || s.properties) return [...edges, ...objectEdges(s, idFor)];
  return edges;
}

/** The object with one property at a time at its edges (the rest sampled), and with its required properties only. */
function objectEdges(s: Schema, idFor: IdFor): Edge[] {
  const base = objectSample(s, idFor);
  const edges: Edge[] = [];
  const required = new Set(s.required ?? []);
  if (Object.keys(base).some((k) => !required.has(k)))
    edges.push(['required fields only', Object.fromEntries(Object.entries(base).filter(([k]) => required.has(k)))]);
  for (const [key, property] of Object.entries(s.properties ?? {})) {
    for (const [what, value, bound] of valueEdges(property, key, idFor))
      edges.push([`${key}: ${what}`, { ...base, [key]: value }, bound]);
  }
  return edges;
}

/** A query string value for an edge (the contract's query parameters are scalars). */
function queryValue(value: unknown): string | undefined {
  if (value === null || typeof value === 'object') return undefined;
  return String(value);
}

/** The concrete `path` of the template with the segment of `{name}` replaced by `value`. */
function withSegment(template: string, path: string, name: string, value: string): string {
  const at = template.split('/').indexOf(`{${name}}`);
  const segments = path.split('/');
  segments[at] = encodeURIComponent(value);
  return segments.join('/');
}

/**
 * The call's edge requests: its JSON body one field at a time, then each query and path parameter that names no
 * resource (`{id}`s are the caller's own, from `idFor`) at its edges.
 */
export function edgeRequests(op: OpenApiOperation, idFor: IdFor): EdgeRequest[] {
  const url = urlFor(op, idFor('id'), (kind) => idFor(kind));
  const bodySchema = jsonBodySchema(op);
  const body = bodySchema ? sampleOf(bodySchema, 'body', idFor) : undefined;
  const out: EdgeRequest[] = [];
  if (bodySchema) {
    for (const [what, value, bound] of valueEdges(bodySchema, 'body', idFor))
      out.push({ what: `body ${what}`, url, body: value, bound });
  }
  for (const p of parametersOf(op)) {
    if (p.in === 'path' && /^(id|[A-Za-z]+Id)$/.test(p.name)) continue;
    if (p.in !== 'path' && p.in !== 'query') continue;
    for (const [what, value, bound] of valueEdges(p.schema ?? {}, p.name, idFor)) {
      const text = queryValue(value);
      if (text === undefined) continue;
      const target = new URL(url, 'http://x');
      if (p.in === 'query') target.searchParams.set(p.name, text);
      else target.pathname = withSegment(op.path, target.pathname, p.name, text);
      out.push({ what: `${p.in} ${p.name}: ${what}`, url: target.pathname + target.search, body, bound });
    }
  }
  return out;
}
