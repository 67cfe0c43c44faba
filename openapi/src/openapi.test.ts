import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import {
  QUERY_PARAMETERS_WITH_DEFAULT,
  apiVersion,
  classifySecurity,
  listOperations,
  loadOpenApi,
  openapiPath,
  schemaProperties,
  type OperationSecurity,
} from './index';

type Obj = Record<string, unknown>;

/**
 * Who may call what, as a rule over paths rather than a restated list of calls: the route table's test checks that
 * the gateway serves every operation, this one that each has the authentication its path says.
 */
function expectedSecurity(method: string, p: string): OperationSecurity {
  if (!p.startsWith('/v1/')) return 'none'; // version, disk, health
  if (/^\/v1\/(auth|sharing)\//.test(p) || p === '/v1/setup') return 'none';
  if (p === '/v1/users' || p.startsWith('/v1/users/')) return 'basic';
  if (method === 'get' && /\/\{id\}\/(original|preview|thumbnail)$/.test(p)) return 'bearerOrSigned'; // content, by signed URL too
  return 'bearer';
}

const TAGS = [
  'Version',
  'Disk',
  'Features',
  'MediaItems',
  'Favourites',
  'Hidden',
  'Trash',
  'YearsAgo',
  'Search',
  'Explore',
  'Albums',
  'Sharing',
  'Auth',
  'Account',
  'Users',
  'Jobs',
  'Health',
];

const SCHEMAS = [
  'MediaItem',
  'MediaItemRequest',
  'MediaItemsRequest',
  'MediaItemsExistRequest',
  'MediaItemsExist',
  'MediaItemCreated',
  'ConflictError',
  'Album',
  'AlbumRequest',
  'AlbumUpdateRequest',
  'Place',
  'Thing',
  'Person',
  'PeopleRequest',
  'MergePeopleRequest',
  'Face',
  'User',
  'UserRequest',
  'UserUpdateRequest',
  'ApiKey',
  'ApiKeyCreated',
  'ApiKeyRequest',
  'Job',
  'JobCreateRequest',
  'JobUpdateRequest',
  'AuthRequest',
  'RefreshRequest',
  'AuthResponse',
  'Version',
  'Disk',
  'Features',
  'Health',
  'Error',
];

const ERROR_RESPONSES: Record<string, string> = {
  BadRequest: '400',
  Unauthorized: '401',
  NotFound: '404',
  Conflict: '409',
  TooManyRequests: '429',
  PayloadTooLarge: '413',
  ServiceUnavailable: '503',
  InternalError: '500',
};

const ERROR_REF = '#/components/schemas/Error';

const VALIDATE_SCRIPT = path.resolve(__dirname, '..', 'scripts', 'validate.cjs');

/**
 * Runs `SwaggerParser.validate` (on a deep copy of the parsed file) in a plain Node child
 * process: swagger-parser's $ref parser is ESM-only, which Jest's CommonJS runtime cannot load.
 */
function swaggerValidate(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [VALIDATE_SCRIPT, file], { timeout: 30000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const doc = loadOpenApi();
const components = doc.components as Obj;
const schemas = components.schemas as Record<string, Obj>;

/** Follows a local `$ref` (`#/a/b`), repeatedly. */
function deref<T = Obj>(node: unknown): T {
  let cur = node as Obj;
  for (let i = 0; i < 10 && cur && typeof cur.$ref === 'string'; i++) {
    const ref = cur.$ref as string;
    expect(ref.startsWith('#/')).toBe(true);
    cur = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((o, k) => (o as Obj | undefined)?.[k], doc) as Obj;
    if (!cur) throw new Error(`unresolved $ref ${ref}`);
  }
  return cur as T;
}

interface Op {
  method: string;
  path: string;
  op: Obj;
  params: Obj[];
}

function operations(): Op[] {
  const out: Op[] = [];
  for (const [p, rawItem] of Object.entries(doc.paths as Record<string, Obj>)) {
    const item = deref(rawItem);
    for (const method of ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']) {
      const op = item[method] as Obj | undefined;
      if (!op) continue;
      const params = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map((x) =>
        deref(x),
      );
      out.push({ method, path: p, op, params });
    }
  }
  return out;
}

const OPS = operations();
const key = (method: string, p: string) => `${method.toUpperCase()} ${p}`;
const byKey = new Map(OPS.map((o) => [key(o.method, o.path), o]));

/** True when `schema` is Error, or an allOf that includes Error. */
function refersToError(schema: unknown): boolean {
  const s = schema as Obj | undefined;
  if (!s) return false;
  if (s.$ref === ERROR_REF) return true;
  if (typeof s.$ref === 'string') return refersToError(deref(s));
  return Array.isArray(s.allOf) && s.allOf.some((x) => refersToError(x));
}

function jsonSchemaOf(response: unknown): unknown {
  const r = deref(response);
  const content = r.content as Record<string, Obj> | undefined;
  return content?.['application/json']?.schema;
}

describe('openapi.yaml', () => {
  it('is a valid OpenAPI 3.0.3 document (swagger-parser)', async () => {
    const { code, stdout, stderr } = await swaggerValidate(openapiPath);
    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, openapi: '3.0.3', operations: listOperations().length });
  });

  it('swagger-parser rejects a broken copy (the validation is not vacuous)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'trove-openapi-'));
    try {
      const broken = loadOpenApi();
      const getVersion = (broken.paths as Record<string, Record<string, Obj>>)['/version'].get;
      delete ((getVersion.responses as Record<string, Obj>)['200'] as Obj).description; // required by OpenAPI
      const file = path.join(dir, 'broken.yaml');
      writeFileSync(file, stringify(broken));
      const { code, stderr } = await swaggerValidate(file);
      expect(code).not.toBe(0);
      expect(stderr).toMatch(/description/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has the Trove info, servers and global security', () => {
    expect(doc.openapi).toBe('3.0.3');
    const info = doc.info as Obj;
    expect(info.title).toBe('Trove API');
    expect(info.version).toMatch(/^\d{2}\.\d{2}\.\d{2}$/);
    expect(apiVersion()).toBe(info.version);
    expect(String(info.description)).toMatch(/bearer/i);
    expect(String(info.description)).toMatch(/pagination/i);
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://localhost:5001' })]);
  });

  it('lists every declared call, each with the security its path calls for', () => {
    expect(listOperations().map((o) => key(o.method, o.path))).toEqual(OPS.map((o) => key(o.method, o.path)));
    const wrong = listOperations()
      .filter((o) => o.security !== expectedSecurity(o.method, o.path))
      .map((o) => `${key(o.method, o.path)} is ${o.security}, expected ${expectedSecurity(o.method, o.path)}`);
    expect(wrong).toEqual([]);
    for (const o of listOperations())
      expect([o.operationId, /^[a-z][A-Za-z]+$/.test(o.operationId)]).toEqual([o.operationId, true]);
  });

  it('has a unique operationId, a summary, a description and known tags on every operation', () => {
    const ids = OPS.map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { method, path: p, op } of OPS) {
      const where = key(method, p);
      expect({ where, summary: typeof op.summary === 'string' && op.summary.length > 0 }).toEqual({
        where,
        summary: true,
      });
      expect({ where, description: typeof op.description === 'string' && op.description.length > 20 }).toEqual({
        where,
        description: true,
      });
      expect({
        where,
        tags: Array.isArray(op.tags) && op.tags.length > 0 && op.tags.every((t) => TAGS.includes(t as string)),
      }).toEqual({ where, tags: true });
    }
    expect(((doc.tags as Obj[]) ?? []).map((t) => t.name).sort()).toEqual([...TAGS].sort());
  });

  it('types every {id} path parameter as a uuid and declares every path parameter', () => {
    for (const { method, path: p, params } of OPS) {
      const pathParams = params.filter((x) => x.in === 'path');
      const templated = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect({ where: key(method, p), params: pathParams.map((x) => x.name).sort() }).toEqual({
        where: key(method, p),
        params: templated,
      });
      for (const param of pathParams) {
        expect(param.required).toBe(true);
        if (param.name === 'id') {
          expect({ where: key(method, p), schema: deref(param.schema) }).toEqual({
            where: key(method, p),
            schema: expect.objectContaining({ type: 'string', format: 'uuid' }),
          });
        }
      }
    }
  });

  it('gives every operation an error response referencing Error', () => {
    for (const { method, path: p, op } of OPS) {
      const responses = op.responses as Record<string, unknown>;
      const errorCodes = Object.keys(responses).filter((c) => /^[45]\d\d$/.test(c));
      const withError = errorCodes.filter((c) => refersToError(jsonSchemaOf(responses[c])));
      expect({ where: key(method, p), hasError: withError.length > 0 }).toEqual({
        where: key(method, p),
        hasError: true,
      });
      // every JSON error body is an Error (or extends it) — except the health probe's 503, which is a Health
      for (const c of errorCodes) {
        const schema = jsonSchemaOf(responses[c]);
        if (!schema || (p.startsWith('/health/') && c === '503')) continue;
        expect({ where: `${key(method, p)} ${c}`, error: refersToError(schema) }).toEqual({
          where: `${key(method, p)} ${c}`,
          error: true,
        });
      }
    }
  });

  it('declares 401/500/503 on authenticated calls and 400 on calls with a uuid path param or a body', () => {
    const security = new Map(listOperations().map((o) => [key(o.method, o.path), o.security]));
    for (const { method, path: p, op, params } of OPS) {
      const codes = Object.keys(op.responses as Obj);
      const where = key(method, p);
      if (security.get(where) !== 'none') {
        expect({ where, codes: codes.filter((c) => ['401', '500', '503'].includes(c)) }).toEqual({
          where,
          codes: ['401', '500', '503'],
        });
      }
      const hasUuidParam = params.some((x) => x.in === 'path' && deref(x.schema).format === 'uuid');
      if (hasUuidParam || op.requestBody) {
        expect({ where, has400: codes.includes('400') }).toEqual({ where, has400: true });
      }
      expect({ where, has500: codes.includes('500') }).toEqual({ where, has500: true });
    }
  });

  it('has the reusable error responses, parameters, security schemes and schemas', () => {
    const responses = components.responses as Record<string, Obj>;
    for (const name of Object.keys(ERROR_RESPONSES)) {
      expect(refersToError(jsonSchemaOf(responses[name]))).toBe(true);
    }
    expect(jsonSchemaOf(responses.Unauthorized)).toBeDefined();
    expect(((responses.Unauthorized.content as Obj)['application/json'] as Obj).example).toEqual({
      message: 'Unauthorized',
    });
    expect(Object.keys((responses.TooManyRequests.headers as Obj) ?? {})).toContain('Retry-After');

    const params = components.parameters as Record<string, Obj>;
    expect(params.Page).toMatchObject({
      name: 'page',
      in: 'query',
      schema: { type: 'integer', minimum: 1, default: 1 },
    });
    expect(params.Limit).toMatchObject({
      name: 'limit',
      in: 'query',
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 15 },
    });
    expect(params.IdPath).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
      schema: { type: 'string', format: 'uuid' },
    });

    expect(components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      basicAuth: { type: 'http', scheme: 'basic' },
      signedUrl: { type: 'apiKey', in: 'query', name: 'sig' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
    });
    expect(doc.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);

    for (const name of SCHEMAS) expect({ name, defined: !!schemas[name] }).toEqual({ name, defined: true });
    expect(schemas.Error).toMatchObject({ type: 'object', required: ['message'] });
    expect(schemas.Error.additionalProperties).not.toBe(false);
  });

  it('never rejects unknown fields in request bodies', () => {
    const seen = new Set<unknown>();
    const walk = (node: unknown, where: string): void => {
      if (!node || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      const n = deref(node);
      expect({ where, additionalProperties: n.additionalProperties }).not.toEqual({
        where,
        additionalProperties: false,
      });
      for (const k of ['properties']) for (const v of Object.values((n[k] as Obj) ?? {})) walk(v, where);
      for (const k of ['allOf', 'anyOf', 'oneOf']) for (const v of (n[k] as unknown[]) ?? []) walk(v, where);
      if (n.items) walk(n.items, where);
    };
    for (const { method, path: p, op } of OPS) {
      if (!op.requestBody) continue;
      const body = deref(op.requestBody);
      for (const media of Object.values(body.content as Record<string, Obj>)) walk(media.schema, key(method, p));
    }
  });

  it('declares paginated lists as plain arrays with page and limit', () => {
    const paginated = [
      '/v1/yearsAgo/{monthDate}/mediaItems',
      '/v1/search',
      '/v1/mediaItems',
      '/v1/favourites',
      '/v1/hidden',
      '/v1/trash',
      '/v1/explore/places',
      '/v1/explore/things',
      '/v1/explore/people',
      '/v1/explore/places/{id}/mediaItems',
      '/v1/explore/things/{id}/mediaItems',
      '/v1/explore/people/{id}/mediaItems',
      '/v1/albums',
      '/v1/albums/{id}/mediaItems',
      '/v1/sharing/{id}/mediaItems',
      '/v1/users',
      '/v1/jobs',
    ];
    for (const p of paginated) {
      const { op, params } = byKey.get(key('get', p))!;
      expect({ p, names: params.map((x) => x.name) }).toEqual({ p, names: expect.arrayContaining(['page', 'limit']) });
      const ok = deref((op.responses as Obj)['200']);
      expect({ p, type: ((ok.content as Record<string, Obj>)['application/json'].schema as Obj).type }).toEqual({
        p,
        type: 'array',
      });
    }
  });

  it('describes the upload call', () => {
    const { op } = byKey.get('POST /v1/mediaItems')!;
    expect(op.summary).toBe('Upload a new mediaItem');
    const body = deref(op.requestBody);
    const schema = deref((body.content as Record<string, Obj>)['multipart/form-data'].schema);
    expect(schema).toMatchObject({
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    });
    const responses = op.responses as Obj;
    expect(deref(jsonSchemaOf(responses['201']))).toBe(schemas.MediaItemCreated);
    expect(jsonSchemaOf(responses['409'])).toEqual({ $ref: '#/components/schemas/ConflictError' });
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(['400', '401', '409', '413', '500', '503']));
  });

  it('describes the content calls (range, caching, signed URLs)', () => {
    for (const kind of ['original', 'preview', 'thumbnail']) {
      const { op, params } = byKey.get(`GET /v1/mediaItems/{id}/${kind}`)!;
      expect(op.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }, { signedUrl: [] }]);
      expect(
        params
          .filter((x) => x.in === 'query')
          .map((x) => x.name)
          .sort(),
      ).toEqual(['album', 'exp', 'share', 'sid', 'sig', 'sk', 'uid']);
      expect(
        params
          .filter((x) => x.in === 'header')
          .map((x) => x.name)
          .sort(),
      ).toEqual(['If-None-Match', 'Range']);
      const responses = op.responses as Obj;
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '206', '304', '404', '416']));
      expect(Object.keys(deref(responses['206']).headers as Obj)).toEqual(
        expect.arrayContaining([
          'Content-Type',
          'Content-Length',
          'ETag',
          'Cache-Control',
          'Accept-Ranges',
          'Content-Range',
        ]),
      );
    }
  });

  it('declares the MediaItem, Album and Job fields', () => {
    const props = (name: string) => Object.keys(schemas[name].properties as Obj).sort();
    expect(props('MediaItem')).toEqual(
      [
        'id',
        'userId',
        'filename',
        'description',
        'mimeType',
        'placeholder',
        'sourceUrl',
        'previewUrl',
        'thumbnailUrl',
        'favourite',
        'shared',
        'hidden',
        'deleted',
        'status',
        'failureReason',
        'mediaItemType',
        'mediaItemCategory',
        'motionMediaItemId',
        'motionUrl',
        'width',
        'height',
        'size',
        'creationTime',
        'latitude',
        'longitude',
        'cameraMake',
        'cameraModel',
        'focalLength',
        'apertureFNumber',
        'isoEquivalent',
        'exposureTime',
        'fps',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
    const mi = schemas.MediaItem.properties as Record<string, Obj>;
    for (const exif of ['focalLength', 'apertureFNumber', 'isoEquivalent', 'exposureTime', 'fps']) {
      expect(mi[exif]).toMatchObject({ type: 'string', nullable: true });
    }
    // A Live Photo's still links its motion part; every other item has null there.
    expect(mi.motionMediaItemId).toMatchObject({ type: 'string', format: 'uuid', nullable: true });
    expect(mi.motionUrl).toMatchObject({ type: 'string', nullable: true });
    expect(deref(mi.status).enum).toEqual(['UNSPECIFIED', 'PROCESSING', 'READY', 'FAILED']);
    expect(deref(mi.mediaItemCategory).enum).toEqual(['default', 'screenshot', 'panorama', 'slow', 'motion', 'live']);
    expect(schemas.MediaItemRequest.minProperties).toBe(1);
    expect((schemas.MediaItemsRequest.properties as Record<string, Obj>).mediaItems).toMatchObject({
      minItems: 1,
      maxItems: 1000,
      items: { format: 'uuid' },
    });
    expect(props('Album')).toEqual(expect.arrayContaining(['coverMediaItemId', 'coverMediaItem', 'mediaItemsCount']));
    expect(props('User')).not.toContain('password');
    expect((schemas.Job.properties as Record<string, Obj>).lastMediaItemId).toMatchObject({
      format: 'uuid',
      nullable: true,
    });
    expect(deref((schemas.Job.properties as Record<string, Obj>).status).enum).toEqual([
      'SCHEDULED',
      'RUNNING',
      'PAUSED',
      'COMPLETED',
      'STOPPED',
    ]);
    expect((schemas.JobUpdateRequest.properties as Record<string, Obj>).status.enum).toEqual([
      'RUNNING',
      'PAUSED',
      'STOPPED',
    ]);
    const pattern = new RegExp(
      (schemas.JobCreateRequest.properties as Record<string, Obj>).components.pattern as string,
    );
    expect(pattern.test('metadata,previews')).toBe(true);
    expect(pattern.test('metadata, previews')).toBe(false);
    expect(pattern.test('nope')).toBe(false);
  });

  it('types every schema id as a uuid', () => {
    for (const [name, schema] of Object.entries(schemas)) {
      const id = (schema.properties as Record<string, Obj> | undefined)?.id;
      if (id) expect({ name, format: id.format }).toEqual({ name, format: 'uuid' });
    }
  });
});

describe('index', () => {
  it('locates openapi.yaml', () => {
    expect(path.isAbsolute(openapiPath)).toBe(true);
    expect(path.basename(openapiPath)).toBe('openapi.yaml');
    expect(existsSync(openapiPath)).toBe(true);
  });

  it('returns independent copies of the parsed document', () => {
    const a = loadOpenApi();
    a.paths = {};
    expect(Object.keys(loadOpenApi().paths as Obj).length).toBeGreaterThan(0);
  });

  it('lists every operation once', () => {
    const ops = listOperations();
    expect(ops).toHaveLength(OPS.length);
    expect(new Set(ops.map((o) => `${o.method} ${o.path}`)).size).toBe(ops.length);
    expect(ops.every((o) => o.method === o.method.toLowerCase())).toBe(true);
  });

  it("names the properties of a schema in the document's order", () => {
    expect(schemaProperties('UserUpdateRequest')).toEqual(['name', 'username', 'password', 'features', 'quotaBytes']);
    expect(schemaProperties('MediaItem')).toEqual(Object.keys((schemas.MediaItem.properties as Obj) ?? {}));
    expect(schemaProperties('MediaItem').slice(0, 7)).toEqual([
      'id',
      'userId',
      'filename',
      'description',
      'mimeType',
      'placeholder',
      'sourceUrl',
    ]);
    expect(() => schemaProperties('Nope' as 'Error')).toThrow(/no object schema Nope/);
  });

  it('lists exactly the query parameters that have a default, and those have one wherever they appear', () => {
    const withDefault = new Set<string>();
    const without = new Set<string>();
    for (const { params } of operations()) {
      for (const p of params.filter((x) => x.in === 'query')) {
        const schema = deref(p.schema);
        (schema.default === undefined ? without : withDefault).add(p.name as string);
      }
    }
    expect([...withDefault].sort()).toEqual([...QUERY_PARAMETERS_WITH_DEFAULT].sort());
    expect([...without].filter((name) => withDefault.has(name))).toEqual([]);
  });

  it('classifies security requirements', () => {
    expect(classifySecurity(undefined)).toBe('none');
    expect(classifySecurity([])).toBe('none');
    expect(classifySecurity([{}])).toBe('none');
    expect(classifySecurity([{ bearerAuth: [] }, { apiKey: [] }])).toBe('bearer');
    expect(classifySecurity([{ basicAuth: [] }])).toBe('basic');
    expect(classifySecurity([{ signedUrl: [] }, { apiKey: [] }, { bearerAuth: [] }])).toBe('bearerOrSigned');
    // a user's call without the API key (or the key without the token) is a contract mistake
    expect(() => classifySecurity([{ bearerAuth: [] }])).toThrow(/unsupported/);
    expect(() => classifySecurity([{ apiKey: [] }])).toThrow(/unsupported/);
    expect(() => classifySecurity([{ bearerAuth: [] }, { signedUrl: [] }])).toThrow(/unsupported/);
    expect(() => classifySecurity([{ oauth: [] }])).toThrow(/unsupported/);
  });
});
