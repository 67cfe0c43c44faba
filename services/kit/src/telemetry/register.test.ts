import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startProcess } from '../testing/process';
import { tempDir } from '../testing/temp';
import type { TempDir } from '../testing/temp';
import { entrypointServiceName } from './service-name';

const KIT_DIR = join(__dirname, '..', '..');

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string };
}
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: Array<{ spans: Array<{ name: string; kind: number }> }>;
  }>;
}

/** A loopback OTLP/HTTP collector (JSON) that also answers GET /ping, the request the demo service makes. */
async function startCollector() {
  const exports: OtlpExport[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') exports.push(JSON.parse(body) as OtlpExport);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, exports, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('telemetry/register', () => {
  let dir: TempDir;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await dir.remove();
  });

  it('started first by an entrypoint, traces its http calls under the name of its package', async () => {
    // A service package laid out like services/*: its own package.json, and the kit installed by name.
    await mkdir(join(dir.path, 'node_modules', '@trove'), { recursive: true });
    await symlink(KIT_DIR, join(dir.path, 'node_modules', '@trove', 'kit'), 'dir');
    await writeFile(join(dir.path, 'package.json'), JSON.stringify({ name: '@trove/demo', version: '1.0.0' }));
    await mkdir(join(dir.path, 'dist'));
    await writeFile(
      join(dir.path, 'dist', 'main.js'),
      [
        "require('@trove/kit/telemetry/register');",
        "const http = require('node:http');",
        "const { stopTelemetry } = require('@trove/kit/telemetry');",
        'http.get(`${process.env.COLLECTOR_URL}/ping`, (res) => {',
        '  res.resume();',
        "  res.on('end', () => stopTelemetry().then(() => console.log('flushed')));",
        '});',
      ].join('\n'),
    );
    const collector = await startCollector();
    const demo = startProcess('demo', join(dir.path, 'dist', 'main.js'), {
      TROVE_OTLP_ENDPOINT: collector.url,
      COLLECTOR_URL: collector.url,
    });
    try {
      await demo.waitForOutput('flushed');
    } finally {
      await demo.stop();
      await collector.close();
    }

    const resources = collector.exports.flatMap((e) => e.resourceSpans);
    const serviceNames = resources.map(
      (r) => r.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue,
    );
    expect(new Set(serviceNames)).toEqual(new Set(['trove-demo']));
    // http was patched although the entrypoint loaded it itself: its request to /ping is a client span.
    const SPAN_KIND_CLIENT = 3;
    const spans = resources.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    expect(spans).toContainEqual(expect.objectContaining({ name: 'GET', kind: SPAN_KIND_CLIENT }));
  });

  it('names a service after its package, without the scope, from anywhere inside it', async () => {
    await writeFile(join(dir.path, 'package.json'), JSON.stringify({ name: '@trove/gateway' }));
    await mkdir(join(dir.path, 'dist', 'sub'), { recursive: true });
    expect(entrypointServiceName(join(dir.path, 'dist', 'main.js'))).toBe('gateway');
    expect(entrypointServiceName(join(dir.path, 'dist', 'sub', 'x.js'))).toBe('gateway');
  });
});
