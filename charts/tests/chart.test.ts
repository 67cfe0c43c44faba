/**
 * The Helm chart charts/trove, checked without a cluster: `helm lint --strict`, renders for the home-lab
 * defaults, for external stores and for the optional parts, every object validated against the Kubernetes API
 * schemas and the workload policy, and the values schema refusing bad values.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CHART,
  REPO,
  at,
  byKind,
  containerOf,
  envOf,
  helm,
  named,
  podSpec,
  problems,
  render,
  renderNotes,
  type K8sObject,
} from './manifests';

const PROCESSES = ['gateway', 'auth', 'media', 'library', 'explore', 'jobs', 'worker', 'web', 'docs'];
/** Processes that serve Prometheus metrics (all but the static docs site). */
const METERED = PROCESSES.filter((p) => p !== 'docs');
const NATS_CLIENTS = ['gateway', 'auth', 'media', 'library', 'explore', 'jobs', 'worker'];
const DOCSTORE_USERS = ['auth', 'media', 'library', 'explore'];
const BLOBSTORE_USERS = ['gateway', 'media', 'worker'];
const EXTERNAL = join(CHART, 'ci', 'external-stores-values.yaml');
const SECRET = 'trove-secrets';

const deployment = (objects: K8sObject[], process: string) => named(objects, 'Deployment', `trove-${process}`);
/** The bundled nats-server's configuration file. */
const natsConf = (objects: K8sObject[]) =>
  (at(named(objects, 'ConfigMap', 'trove-nats'), 'data') as Record<string, string>)['nats.conf'];
const env = (objects: K8sObject[], process: string) => envOf(containerOf(deployment(objects, process)));

describe('helm lint', () => {
  it('passes --strict for the defaults and for external stores', () => {
    for (const args of [[], ['--values', EXTERNAL]]) {
      const run = helm(['lint', '--strict', CHART, ...args]);
      expect({ status: run.status, out: run.stdout + run.stderr }).toEqual({
        status: 0,
        out: expect.stringContaining('0 chart(s) failed'),
      });
    }
  });
});

describe('home-lab defaults', () => {
  const objects = render();

  it('gives each service that keeps documents its own MongoDB user, readWrite on its own database only; the root password reaches only MongoDB and the users Job', () => {
    const job = byKind(objects, 'Job');
    expect(job.map((j) => j.metadata.name)).toEqual(['trove-mongodb-users-1']);
    const jobEnv = envOf(containerOf(job[0]));
    expect(jobEnv).toMatchObject({
      MONGO_HOST: 'trove-mongodb',
      MONGO_ROOT_USER: 'root',
      MONGO_ROOT_PASSWORD: `secret:${SECRET}/mongodb-root-password`,
      MONGO_SERVICES: [...DOCSTORE_USERS].sort().join(','),
    });
    for (const p of DOCSTORE_USERS)
      expect(jobEnv[`MONGO_PASSWORD_${p.toUpperCase()}`]).toBe(`secret:${SECRET}/mongodb-${p}-password`);
    // The script: each user made (or updated) in its own database with readWrite on it and no other role.
    const script = (at(containerOf(job[0]), 'args') as string[]).join('\n');
    expect(script).toContain("const roles = [{ role: 'readWrite', db: `trove_${service}` }];");
    expect(script).toMatch(/createUser\(\{ user, pwd, roles \}\)/);
    expect(script.match(/role: '\w+'/g)).toEqual(["role: 'readWrite'"]);
    // Who may read the root password: MongoDB's StatefulSet and the Job, nobody else.
    const readers = objects
      .filter((o) => ['Deployment', 'StatefulSet', 'Job'].includes(o.kind))
      .filter((o) => JSON.stringify(podSpec(o)).includes('"key":"mongodb-root-password"'))
      .map((o) => `${o.kind}/${o.metadata.name}`);
    expect(readers.sort()).toEqual(['Job/trove-mongodb-users-1', 'StatefulSet/trove-mongodb']);
    // The services do not learn each other's database passwords either.
    for (const p of DOCSTORE_USERS) {
      const refs = JSON.stringify(podSpec(deployment(objects, p))).match(/"key":"mongodb-[a-z-]+"/g) ?? [];
      expect(refs).toEqual([`"key":"mongodb-${p}-url"`]);
    }
  });

  it('renders only objects valid against the Kubernetes schemas and the workload policy', () => {
    expect(objects.length).toBeGreaterThan(40);
    expect(problems(objects)).toEqual([]);
  });

  it('has a Deployment and a Service per process, and NATS, MongoDB and MinIO as StatefulSets with volumes', () => {
    expect(
      byKind(objects, 'Deployment')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(PROCESSES.map((p) => `trove-${p}`).sort());
    for (const p of PROCESSES) named(objects, 'Service', `trove-${p}`);
    for (const store of ['nats', 'mongodb', 'minio']) {
      const set = named(objects, 'StatefulSet', `trove-${store}`);
      expect(at(set, 'spec.volumeClaimTemplates.0.metadata.name')).toBe('data');
      named(objects, 'Service', `trove-${store}`);
    }
  });

  it('probes each process on its health endpoint', () => {
    const probe = (p: string) => at(containerOf(deployment(objects, p)), 'readinessProbe.httpGet');
    expect(probe('gateway')).toEqual({ path: '/health/ready', port: 'http' });
    expect(at(containerOf(deployment(objects, 'gateway')), 'livenessProbe.httpGet')).toEqual({
      path: '/health/live',
      port: 'http',
    });
    expect(probe('web')).toEqual({ path: '/healthz', port: 'http' });
    for (const p of ['auth', 'media', 'library', 'explore', 'jobs', 'worker'])
      expect(probe(p)).toEqual({ path: '/healthz', port: 'metrics' });
  });

  it('lets Prometheus scrape every Trove process: TROVE_METRICS_PORT, a metrics port, scrape annotations', () => {
    for (const p of METERED) {
      const d = deployment(objects, p);
      expect(env(objects, p).TROVE_METRICS_PORT).toBe('9100');
      expect(at(d, 'spec.template.metadata.annotations')).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': '9100',
        'prometheus.io/path': '/metrics',
      });
      expect(at(named(objects, 'Service', `trove-${p}`), 'spec.ports')).toContainEqual({
        name: 'metrics',
        port: 9100,
        targetPort: 'metrics',
      });
    }
    expect(byKind(objects, 'ServiceMonitor')).toEqual([]);
  });

  it('gives each service its own NATS user and password from the generated Secret, and the bundled nats-server requires them', () => {
    const natsEnv = envOf(containerOf(named(objects, 'StatefulSet', 'trove-nats')));
    const conf = natsConf(objects);
    for (const p of NATS_CLIENTS) {
      expect(env(objects, p)).toMatchObject({
        TROVE_NATS_URL: 'nats://trove-nats:4222',
        TROVE_NATS_USER: p,
        TROVE_NATS_PASSWORD: `secret:${SECRET}/nats-${p}-password`,
      });
      expect(natsEnv[`NATS_PASSWORD_${p.toUpperCase()}`]).toBe(`secret:${SECRET}/nats-${p}-password`);
      expect(conf).toContain(`{ user: "${p}", password: $NATS_PASSWORD_${p.toUpperCase()}, permissions: {`);
    }
    expect(conf).toMatch(/jetstream \{\s+store_dir: \/data/);
    // The worker's allow-lists (the chart's copy of proto-events' permissions) name no auth subject.
    const workerLine = conf.split('\n').find((l) => l.includes('user: "worker"'))!;
    expect(workerLine).toContain('"events.v1.media.processed"');
    expect(workerLine).not.toContain('trove.v1.auth');
  });

  it('points the services at MongoDB and MinIO, with every secret from the Secret and none written in', () => {
    for (const p of DOCSTORE_USERS) expect(env(objects, p).TROVE_MONGODB_URL).toBe(`secret:${SECRET}/mongodb-${p}-url`);
    for (const p of BLOBSTORE_USERS) {
      expect(env(objects, p)).toMatchObject({
        TROVE_S3_BUCKET: 'trove',
        TROVE_S3_ENDPOINT: 'http://trove-minio:9000',
        TROVE_S3_ACCESS_KEY_ID: `secret:${SECRET}/s3-access-key-id`,
        TROVE_S3_SECRET_ACCESS_KEY: `secret:${SECRET}/s3-secret-access-key`,
      });
    }
    expect(env(objects, 'gateway')).toMatchObject({
      TROVE_ADMIN_PASSWORD: `secret:${SECRET}/admin-password`,
      TROVE_JWT_SECRET: `secret:${SECRET}/jwt-secret`,
      TROVE_URL_SIGNING_SECRET: `secret:${SECRET}/url-signing-secret`,
      TROVE_PROXY_SECRET: `secret:${SECRET}/proxy-secret`,
    });
    expect(env(objects, 'auth').TROVE_JWT_SECRET).toBe(`secret:${SECRET}/jwt-secret`);
    expect(env(objects, 'web')).toMatchObject({
      TROVE_SESSION_SECRET: `secret:${SECRET}/session-secret`,
      TROVE_PROXY_SECRET: `secret:${SECRET}/proxy-secret`,
      TROVE_API_URL: 'http://trove-gateway:5001',
    });

    const secret = named(objects, 'Secret', SECRET);
    expect(at(secret, 'metadata.annotations')).toMatchObject({ 'helm.sh/resource-policy': 'keep' });
    const data = at(secret, 'data') as Record<string, string>;
    const decoded = (key: string) => Buffer.from(data[key], 'base64').toString();
    for (const key of [
      'admin-password',
      'jwt-secret',
      'url-signing-secret',
      'session-secret',
      'proxy-secret',
      'nats-password',
      ...NATS_CLIENTS.map((p) => `nats-${p}-password`),
    ]) {
      expect(decoded(key)).toMatch(/^[A-Za-z0-9]{48}$/);
    }
    for (const p of DOCSTORE_USERS) {
      expect(decoded(`mongodb-${p}-url`)).toBe(
        `mongodb://trove-${p}:${decoded(`mongodb-${p}-password`)}@trove-mongodb:27017/trove?authSource=trove_${p}`,
      );
    }
    // No root URL at all: the root password is for MongoDB and the users Job only.
    expect(data['mongodb-url']).toBeUndefined();
    // No generated value appears anywhere but in the Secret.
    const others = JSON.stringify(objects.filter((o) => o.kind !== 'Secret'));
    for (const key of Object.keys(data)) expect(others).not.toContain(decoded(key));
  });

  it('sets only TROVE_ variables that the Configuration page documents', () => {
    const page = readFileSync(join(REPO, 'docs/docs/user-guide/configuration.md'), 'utf8');
    const documented = new Set(page.match(/TROVE_[A-Z0-9_]+/g));
    const used = new Set(
      byKind(objects, 'Deployment')
        .flatMap((d) => Object.keys(envOf(containerOf(d))))
        .filter((n) => n.startsWith('TROVE_')),
    );
    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((n) => !documented.has(n))).toEqual([]);
  });

  it('scales the worker with an HPA on CPU and leaves its replica count to it', () => {
    const hpa = named(objects, 'HorizontalPodAutoscaler', 'trove-worker');
    expect(at(hpa, 'spec.scaleTargetRef')).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'trove-worker' });
    expect(at(hpa, 'spec.metrics.0.resource.name')).toBe('cpu');
    expect(at(deployment(objects, 'worker'), 'spec.replicas')).toBeUndefined();
    expect(at(deployment(objects, 'gateway'), 'spec.replicas')).toBe(1);
  });

  it('has a PodDisruptionBudget per process that never blocks a drain of a single replica', () => {
    for (const p of PROCESSES)
      expect(at(named(objects, 'PodDisruptionBudget', `trove-${p}`), 'spec.maxUnavailable')).toBe(1);
  });

  it('routes the ingress to the web app, the API and the docs by host', () => {
    const rules = at(named(objects, 'Ingress', 'trove'), 'spec.rules') as {
      host: string;
      http: { paths: { backend: { service: { name: string } } }[] };
    }[];
    expect(rules.map((r) => [r.host, r.http.paths[0].backend.service.name])).toEqual([
      ['photos.home.arpa', 'trove-web'],
      ['api.photos.home.arpa', 'trove-gateway'],
      ['docs.photos.home.arpa', 'trove-docs'],
    ]);
  });

  it('serves every host over TLS by default, and tells the web app its public URL is https', () => {
    expect(at(named(objects, 'Ingress', 'trove'), 'spec.tls')).toEqual([
      { secretName: 'trove-tls', hosts: ['photos.home.arpa', 'api.photos.home.arpa', 'docs.photos.home.arpa'] },
    ]);
    expect(env(objects, 'web').TROVE_WEB_PUBLIC_URL).toBe('https://photos.home.arpa');
    expect(renderNotes()).not.toMatch(/WARNING/);
  });

  it('lets only the gateway, web and docs take traffic from the ingress controller; the rest talk to NATS and the stores', () => {
    const policies = byKind(objects, 'NetworkPolicy');
    const fromIngress = policies
      .filter((p) => JSON.stringify(at(p, 'spec.ingress')).includes('"kubernetes.io/metadata.name":"kube-system"'))
      .map((p) => p.metadata.name)
      .sort();
    expect(fromIngress).toEqual(['trove-docs', 'trove-gateway', 'trove-web']);
    for (const p of ['auth', 'media', 'library', 'explore', 'jobs', 'worker']) {
      const policy = named(objects, 'NetworkPolicy', `trove-${p}`);
      expect(at(policy, 'spec.policyTypes')).toEqual(['Ingress', 'Egress']);
      // Inbound: only Prometheus on the metrics port.
      expect(at(policy, 'spec.ingress')).toEqual([
        {
          from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
          ports: [{ port: 'metrics' }],
        },
      ]);
      const egress = JSON.stringify(at(policy, 'spec.egress'));
      expect(egress).toContain('"values":["nats","mongodb","minio"]');
      expect(egress).not.toContain('ipBlock');
    }
    for (const store of ['nats', 'mongodb', 'minio']) named(objects, 'NetworkPolicy', `trove-${store}`);
  });

  it('runs every pod without a service-account token and under a fixed non-root user', () => {
    for (const o of [...byKind(objects, 'Deployment'), ...byKind(objects, 'StatefulSet')]) {
      const pod = podSpec(o);
      expect({
        name: o.metadata.name,
        token: pod.automountServiceAccountToken,
        uid: (pod.securityContext?.runAsUser ?? 0) > 0,
      }).toEqual({ name: o.metadata.name, token: false, uid: true });
    }
  });
});

describe('external MongoDB, S3 and NATS (ci/external-stores-values.yaml)', () => {
  const objects = render({ values: [EXTERNAL] });

  it('renders valid objects and bundles no store', () => {
    expect(problems(objects)).toEqual([]);
    expect(byKind(objects, 'StatefulSet')).toEqual([]);
    expect(objects.map((o) => o.metadata.name).filter((n) => /-(nats|mongodb|minio)$/.test(n))).toEqual([]);
  });

  it('points the services at the external endpoints with TLS trust for NATS', () => {
    for (const p of NATS_CLIENTS) {
      expect(env(objects, p)).toMatchObject({
        TROVE_NATS_URL: 'tls://nats.home.arpa:4222',
        TROVE_NATS_PASSWORD: `secret:${SECRET}/nats-password`,
        TROVE_NATS_TLS_CA_FILE: '/etc/trove/nats-ca/ca.crt',
      });
      expect(podSpec(deployment(objects, p)).volumes).toContainEqual({
        name: 'nats-ca',
        secret: { secretName: 'nats-ca', items: [{ key: 'ca.crt', path: 'ca.crt' }] },
      });
    }
    for (const p of BLOBSTORE_USERS) {
      expect(env(objects, p)).toMatchObject({
        TROVE_S3_BUCKET: 'trove-photos',
        TROVE_S3_ENDPOINT: 'http://nas.home.arpa:9000',
        TROVE_S3_QUOTA_BYTES: '2000000000000',
      });
    }
    const data = at(named(objects, 'Secret', SECRET), 'data') as Record<string, string>;
    expect(Buffer.from(data['mongodb-url'], 'base64').toString()).toBe(
      'mongodb://trove:secret@mongo.home.arpa:27017/trove?authSource=admin',
    );
    expect(Buffer.from(data['s3-secret-access-key'], 'base64').toString()).toBe('a-secret-access-key');
    // Egress may leave the cluster now, to reach the stores.
    expect(JSON.stringify(at(named(objects, 'NetworkPolicy', 'trove-media'), 'spec.egress'))).toContain(
      '"ipBlock":{"cidr":"0.0.0.0/0"}',
    );
  });

  it('refuses external stores without their endpoint', () => {
    expect(() => render({ set: { 'mongodb.enabled': false } })).toThrow(/externalMongodb.url/);
    expect(() => render({ set: { 'nats.enabled': false } })).toThrow(/externalNats.url is required/);
    expect(() =>
      render({ set: { 'minio.enabled': false, 'externalS3.accessKeyId': 'a', 'externalS3.secretAccessKey': 'b' } }),
    ).toThrow(/externalS3.bucket is required/);
  });
});

describe('TLS on the ingress', () => {
  it('plain HTTP: no TLS on the Ingress, and NOTES warns loudly', () => {
    const objects = render({ set: { 'ingress.scheme': 'http' } });
    expect(at(named(objects, 'Ingress', 'trove'), 'spec.tls')).toBeUndefined();
    expect(env(objects, 'web').TROVE_WEB_PUBLIC_URL).toBe('http://photos.home.arpa');
    expect(renderNotes({ set: { 'ingress.scheme': 'http' } })).toMatch(/WARNING: TLS IS OFF \(ingress\.scheme=http\)/);
  });

  it('explicit tls entries replace the generated one; an empty tlsSecretName means TLS ends before the Ingress (NOTES says so)', () => {
    const explicit = render({
      set: { 'ingress.tls[0].secretName': 'mine', 'ingress.tls[0].hosts[0]': 'photos.home.arpa' },
    });
    expect(at(named(explicit, 'Ingress', 'trove'), 'spec.tls')).toEqual([
      { secretName: 'mine', hosts: ['photos.home.arpa'] },
    ]);
    const outside = render({ set: { 'ingress.tlsSecretName': '' } });
    expect(at(named(outside, 'Ingress', 'trove'), 'spec.tls')).toBeUndefined();
    expect(renderNotes({ set: { 'ingress.tlsSecretName': '' } })).toMatch(/has no TLS: it must end before it/);
  });

  it('leaves the docs host out of the certificate when the docs are off', () => {
    const objects = render({ set: { 'components.docs.enabled': false } });
    expect(at(named(objects, 'Ingress', 'trove'), 'spec.tls')).toEqual([
      { secretName: 'trove-tls', hosts: ['photos.home.arpa', 'api.photos.home.arpa'] },
    ]);
  });
});

describe('optional parts', () => {
  it("defaultQuotaBytes: auth's TROVE_DEFAULT_QUOTA_BYTES as whole bytes (also from a values file), unset for null; refuses what is not a size", () => {
    expect(env(render(), 'auth')).not.toHaveProperty('TROVE_DEFAULT_QUOTA_BYTES');
    expect(env(render({ set: { defaultQuotaBytes: 0 } }), 'auth').TROVE_DEFAULT_QUOTA_BYTES).toBe('0');
    // A values file's 50 GiB is a float to Helm: rendered whole, not as 5.36870912e+10.
    const file = join(mkdtempSync(join(tmpdir(), 'trove-chart-')), 'quota.yaml');
    writeFileSync(file, 'defaultQuotaBytes: 53687091200\n');
    const objects = render({ values: [file] });
    expect(problems(objects)).toEqual([]);
    expect(env(objects, 'auth').TROVE_DEFAULT_QUOTA_BYTES).toBe('53687091200');
    // Only auth reads it.
    expect(env(objects, 'gateway')).not.toHaveProperty('TROVE_DEFAULT_QUOTA_BYTES');
    expect(() => render({ set: { defaultQuotaBytes: -1 } })).toThrow(/defaultQuotaBytes/);
    expect(() => render({ set: { defaultQuotaBytes: '50GiB' } })).toThrow(/defaultQuotaBytes/);
  });

  it('KEDA: a ScaledObject on the work queue pending messages replaces the HPA', () => {
    const objects = render({ set: { 'keda.enabled': true } });
    expect(problems(objects)).toEqual([]);
    expect(byKind(objects, 'HorizontalPodAutoscaler')).toEqual([]);
    const scaled = named(objects, 'ScaledObject', 'trove-worker');
    // The names the code uses: the stream in proto-events, the durable consumer in the worker.
    const stream = /work: \{ name: '([A-Z_]+)'/.exec(
      readFileSync(join(REPO, 'proto-events', 'src', 'contract.ts'), 'utf8'),
    )?.[1];
    const consumer = /WORK_CONSUMER = '([a-z-]+)'/.exec(
      readFileSync(join(REPO, 'services', 'worker', 'src', 'pipeline', 'config.ts'), 'utf8'),
    )?.[1];
    expect(at(scaled, 'spec.triggers.0')).toMatchObject({
      type: 'nats-jetstream',
      metadata: {
        stream,
        consumer,
        natsServerMonitoringEndpoint: 'trove-nats.trove.svc.cluster.local:8222',
        lagThreshold: '20',
      },
    });
    expect(at(scaled, 'spec.scaleTargetRef.name')).toBe('trove-worker');
  });

  it('ServiceMonitor: selects every release Service on its metrics port', () => {
    const objects = render({
      set: { 'metrics.serviceMonitor.enabled': true, 'metrics.serviceMonitor.labels.release': 'kube-prometheus-stack' },
    });
    expect(problems(objects)).toEqual([]);
    const monitor = named(objects, 'ServiceMonitor', 'trove');
    expect(at(monitor, 'metadata.labels.release')).toBe('kube-prometheus-stack');
    expect(at(monitor, 'spec.endpoints')).toEqual([{ port: 'metrics', path: '/metrics', interval: '30s' }]);
    const selector = at(monitor, 'spec.selector.matchLabels') as Record<string, string>;
    const selected = byKind(objects, 'Service').filter((s) =>
      Object.entries(selector).every(([k, v]) => s.metadata.labels?.[k] === v),
    );
    const withMetrics = selected.filter((s) =>
      (at(s, 'spec.ports') as { name: string }[]).some((p) => p.name === 'metrics'),
    );
    expect(withMetrics.map((s) => s.metadata.name).sort()).toEqual(METERED.map((p) => `trove-${p}`).sort());
  });

  it('NATS with TLS and a token: the server loads the certificate, the clients use tls:// and the token', () => {
    const objects = render({
      set: { 'nats.tls.enabled': true, 'nats.tls.secretName': 'nats-tls', 'nats.auth.mode': 'token' },
    });
    expect(problems(objects)).toEqual([]);
    const conf = natsConf(objects);
    expect(conf).toContain('authorization { token: $TROVE_NATS_TOKEN }');
    expect(conf).toMatch(/tls \{\s+cert_file: \/etc\/nats\/tls\/tls.crt/);
    const gateway = env(objects, 'gateway');
    expect(gateway).toMatchObject({
      TROVE_NATS_URL: 'tls://trove-nats:4222',
      TROVE_NATS_TOKEN: `secret:${SECRET}/nats-token`,
      TROVE_NATS_TLS_CA_FILE: '/etc/trove/nats-ca/ca.crt',
    });
    expect(gateway.TROVE_NATS_PASSWORD).toBeUndefined();
    expect(() => render({ set: { 'nats.tls.enabled': true } })).toThrow(/nats.tls.secretName is required/);
  });

  it('an existing Secret replaces the generated one everywhere', () => {
    const objects = render({ set: { 'secrets.existingSecret': 'my-trove' } });
    expect(byKind(objects, 'Secret')).toEqual([]);
    expect(env(objects, 'gateway').TROVE_JWT_SECRET).toBe('secret:my-trove/jwt-secret');
  });
});

describe('the checks themselves', () => {
  it('catch a writable root filesystem (the dev profile), a missing probe and missing limits', () => {
    const dev = render({ set: { readOnlyRootFilesystem: false } });
    expect(problems(dev)).toContain('Deployment trove-gateway container gateway: readOnlyRootFilesystem is not true');
    const gateway = structuredClone(deployment(render(), 'gateway'));
    const container = containerOf(gateway);
    delete container.livenessProbe;
    delete container.resources?.limits;
    container.ports = [{ containerPort: 'http' as unknown as number }];
    expect(problems([gateway])).toEqual([
      expect.stringMatching(/^apps\/v1\/Deployment trove-gateway: .*containerPort must be integer/),
      'Deployment trove-gateway container gateway: no livenessProbe',
      'Deployment trove-gateway container gateway: no resources.limits.cpu',
      'Deployment trove-gateway container gateway: no resources.limits.memory',
    ]);
  });
});

describe('values.schema.json', () => {
  const refused = (set: Record<string, string | number | boolean>) => {
    const args = ['template', 'trove', CHART];
    for (const [k, v] of Object.entries(set)) args.push(typeof v === 'string' ? '--set-string' : '--set', `${k}=${v}`);
    const run = helm(args);
    return { status: run.status, stderr: run.stderr };
  };

  it('refuses a value of the wrong type', () => {
    expect(refused({ 'components.worker.replicas': 'two' })).toEqual({
      status: 1,
      stderr: expect.stringContaining('components.worker.replicas: Invalid type. Expected: integer, given: string'),
    });
    expect(refused({ 'nats.enabled': 'yes' })).toEqual({
      status: 1,
      stderr: expect.stringContaining('nats.enabled: Invalid type. Expected: boolean'),
    });
  });

  it('refuses unknown keys, bad choices and malformed quantities', () => {
    expect(refused({ 'components.gateway.replica': 2 }).stderr).toContain('Additional property replica is not allowed');
    expect(refused({ 'nats.auth.mode': 'anonymous' }).stderr).toContain('nats.auth.mode');
    expect(refused({ 'components.worker.resources.limits.memory': '2 gigs' }).stderr).toContain(
      'components.worker.resources.limits.memory',
    );
    expect(refused({ 'externalMongodb.url': 'postgres://db' }).stderr).toContain('externalMongodb.url');
  });
});
