/**
 * The chart's opt-in backup CronJob (templates/backup.yaml), checked by rendering: nothing here runs a cluster, so
 * that mongodump, mc mirror and the shell steps work against live MongoDB and MinIO is not shown by these tests
 * (see the docs' Backup and restore page, "In Kubernetes", for the drill to run on a cluster).
 */
import { join } from 'node:path';
import { CHART, at, byKind, envOf, helm, named, podSpec, problems, render, type K8sObject } from './manifests';

const SECRET = 'trove-secrets';
const EXTERNAL = join(CHART, 'ci', 'external-stores-values.yaml');
const ENABLED = { 'backup.enabled': true };

const cronJob = (objects: K8sObject[]) => named(objects, 'CronJob', 'trove-backup');
const containers = (o: K8sObject) => {
  const pod = podSpec(o);
  return Object.fromEntries([...(pod.initContainers ?? []), ...pod.containers].map((c) => [c.name, c]));
};
const backupObjects = (objects: K8sObject[]) =>
  objects.filter((o) => o.metadata.labels?.['app.kubernetes.io/component'] === 'backup');

describe('backup disabled (the default)', () => {
  it('renders no backup object at all', () => {
    const objects = render();
    expect(backupObjects(objects)).toEqual([]);
    expect(byKind(objects, 'CronJob')).toEqual([]);
    expect(byKind(objects, 'PersistentVolumeClaim')).toEqual([]);
  });
});

describe('backup enabled with the bundled stores', () => {
  const objects = render({
    set: { ...ENABLED, 'backup.schedule': '15 2 * * *', 'backup.keep': 5, 'backup.persistence.size': '20Gi' },
  });
  const job = cronJob(objects);
  const steps = containers(job);

  it('is valid for the Kubernetes schemas and the workload policy (restricted security context, /tmp an emptyDir)', () => {
    expect(problems(objects)).toEqual([]);
    expect(
      backupObjects(objects)
        .map((o) => `${o.kind}/${o.metadata.name}`)
        .sort(),
    ).toEqual(['CronJob/trove-backup', 'NetworkPolicy/trove-backup', 'PersistentVolumeClaim/trove-backup']);
  });

  it('runs on the schedule, one at a time, the steps in order onto the PVC', () => {
    expect(at(job, 'spec.schedule')).toBe('15 2 * * *');
    expect(at(job, 'spec.concurrencyPolicy')).toBe('Forbid');
    expect(Object.keys(steps)).toEqual(['prepare', 'mongodb', 'blobs', 'finish']);
    const pvc = named(objects, 'PersistentVolumeClaim', 'trove-backup');
    expect(at(pvc, 'spec.resources.requests.storage')).toBe('20Gi');
    expect(podSpec(job).volumes).toContainEqual({
      name: 'backup',
      persistentVolumeClaim: { claimName: 'trove-backup' },
    });
    expect(podSpec(job).automountServiceAccountToken).toBe(false);
    for (const c of Object.values(steps)) {
      expect(c.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true });
      expect(c.securityContext?.capabilities?.drop).toEqual(['ALL']);
    }
    expect(envOf(steps.finish)).toMatchObject({ KEEP: '5' });
  });

  it('dumps MongoDB with mongodump --archive --gzip, the root password from the Secret through a config file, never in arguments', () => {
    const c = steps.mongodb;
    expect(c.image).toBe('mongo:7.0');
    expect(envOf(c)).toMatchObject({
      MONGO_HOST: 'trove-mongodb',
      MONGO_ROOT_USER: 'root',
      MONGO_ROOT_PASSWORD: `secret:${SECRET}/mongodb-root-password`,
    });
    const script = (c.args ?? []).join('\n');
    expect(script).toMatch(/mongodump --config "\$conf" --archive=\S+ --gzip/);
    expect(script).toContain('trap \'rm -f "$conf"\' EXIT');
    expect(script).not.toMatch(/--password|-p /);
  });

  it('mirrors the bucket with a pinned mc, the alias assembled from the Secret by Kubernetes (no literal credential)', () => {
    const c = steps.blobs;
    expect(c.image).toMatch(/^minio\/mc:RELEASE\.\d{4}-/);
    expect(c.args).toEqual(['mirror', '--overwrite', '--remove', 'trove/trove', '/backup/.partial/blobs']);
    expect(envOf(c)).toEqual({
      HOME: '/tmp',
      S3_ACCESS_KEY_ID: `secret:${SECRET}/s3-access-key-id`,
      S3_SECRET_ACCESS_KEY: `secret:${SECRET}/s3-secret-access-key`,
      MC_HOST_trove: 'http://$(S3_ACCESS_KEY_ID):$(S3_SECRET_ACCESS_KEY)@trove-minio:9000',
    });
    // The hard-linked copy of the previous backup's blobs that mc mirror only adds the changes to.
    expect((steps.prepare.args ?? []).join('\n')).toContain('cp -al "$previous/blobs" /backup/.partial/blobs');
  });

  it('puts no secret value into the CronJob: every credential is a secretKeyRef', () => {
    const secret = named(render({ set: ENABLED }), 'Secret', SECRET);
    const values = Object.values(at(secret, 'data') as Record<string, string>).map((v) =>
      Buffer.from(v, 'base64').toString(),
    );
    const text = JSON.stringify(job);
    for (const v of values) expect(text.includes(v)).toBe(false);
  });

  it('lets the backup pod reach DNS, MongoDB and MinIO only, and take no traffic', () => {
    const policy = named(objects, 'NetworkPolicy', 'trove-backup');
    expect(at(policy, 'spec.podSelector.matchLabels')).toMatchObject({ 'app.kubernetes.io/component': 'backup' });
    expect(at(policy, 'spec.ingress')).toEqual([]);
    const egress = at(policy, 'spec.egress') as { to: unknown[]; ports: unknown[] }[];
    expect(egress).toHaveLength(2);
    expect(JSON.stringify(egress[1])).toContain('"values":["mongodb","minio"]');
    expect(egress[1].ports).toEqual([{ port: 27017 }, { port: 9000 }]);
    expect(JSON.stringify(egress)).not.toContain('ipBlock');
    // The stores' own policies admit the release's pods, which the backup pod is.
    expect(at(job, 'spec.jobTemplate.spec.template.metadata.labels')).toMatchObject({
      'app.kubernetes.io/instance': 'trove',
      'app.kubernetes.io/part-of': 'trove',
    });
  });

  it('uses an existing claim instead of making one', () => {
    const mine = render({ set: { ...ENABLED, 'backup.persistence.existingClaim': 'nas-backups' } });
    expect(byKind(mine, 'PersistentVolumeClaim')).toEqual([]);
    expect(podSpec(cronJob(mine)).volumes).toContainEqual({
      name: 'backup',
      persistentVolumeClaim: { claimName: 'nas-backups' },
    });
  });
});

describe('backup enabled with external stores', () => {
  const objects = render({ set: ENABLED, values: [EXTERNAL] });
  const steps = containers(cronJob(objects));

  it('dumps the external MongoDB from its URL in the Secret and skips the blobs (the bucket keeps them)', () => {
    expect(problems(objects)).toEqual([]);
    expect(Object.keys(steps)).toEqual(['prepare', 'mongodb', 'finish']);
    expect(Object.values(envOf(steps.mongodb)).filter((v) => v.startsWith('secret:'))).toHaveLength(1);
    expect(envOf(steps.mongodb).MONGO_URL).toMatch(/^secret:/);
    expect((steps.finish.args ?? []).join('\n')).toContain('external S3');
    const policy = named(objects, 'NetworkPolicy', 'trove-backup');
    expect(JSON.stringify(at(policy, 'spec.egress'))).toContain('ipBlock');
  });
});

describe('helm lint', () => {
  it('passes --strict with the backup enabled, and the schema refuses keep 0', () => {
    const run = helm(['lint', '--strict', CHART, '--set', 'backup.enabled=true']);
    expect({ status: run.status, out: run.stdout + run.stderr }).toEqual({
      status: 0,
      out: expect.stringContaining('0 chart(s) failed'),
    });
    const bad = helm(['template', 'trove', CHART, '--set', 'backup.enabled=true', '--set', 'backup.keep=0']);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('keep');
  });
});
