/**
 * What builds and ships Trove, checked where no container engine or cluster exists: the kustomize bases and
 * overlays (rendered with `kubectl kustomize`, validated like the chart), the Dockerfile's targets, skaffold.yaml's
 * profiles, and the CI workflow that runs the store contract suites against real MongoDB and MinIO.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO, at, byKind, containerOf, parseManifests, problems, render } from './manifests';

const read = (path: string) => readFileSync(join(REPO, path), 'utf8');

describe('k8s/ (kustomize)', () => {
  const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  const available = kubectl.status === 0;
  if (!available)
    process.stderr.write('[k8s] skipping the kustomize renders: kubectl is not on PATH (Debian: kubernetes-client)\n');
  const build = (dir: string) => {
    const run = spawnSync('kubectl', ['kustomize', join(REPO, dir)], { encoding: 'utf8', timeout: 60_000 });
    if (run.status !== 0) throw new Error(`kubectl kustomize ${dir}: ${run.stderr}`);
    return parseManifests(run.stdout);
  };

  (available ? it : it.skip).each(['k8s/base', 'k8s/overlays/home-lab'])('%s renders valid objects', (dir) => {
    const objects = build(dir);
    expect(problems(objects)).toEqual([]);
    const namespace = objects.find((o) => o.kind === 'Namespace' && o.metadata.name === 'trove');
    // The chart's pods meet the restricted Pod Security Standard that the namespace enforces.
    expect(namespace?.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  (available ? it : it.skip)('the home-lab overlay brings KEDA, which the chart needs for keda.enabled', () => {
    const chart = byKind(build('k8s/overlays/home-lab'), 'HelmChart');
    expect(chart.map((c) => at(c, 'spec.chart'))).toEqual(['keda']);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  /** Each stage's name and its instructions. */
  const stages = new Map<string, string>();
  for (const part of dockerfile.split(/^(?=FROM )/m).filter((p) => p.startsWith('FROM '))) {
    const name = /^FROM \S+ AS (\S+)/.exec(part)?.[1];
    if (name) stages.set(name, part);
  }
  const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;

  it('has the targets the chart, skaffold and CI use, each ending as a non-root user without a HEALTHCHECK', () => {
    expect([...stages.keys()]).toEqual(['build', 'prod-deps', 'trove', 'trove-worker', 'trove-docs']);
    for (const target of ['trove', 'trove-worker']) {
      const users = [...stages.get(target)!.matchAll(/^USER (\S+)/gm)].map((m) => m[1]);
      expect(users.at(-1)).toBe('node');
    }
    expect(stages.get('trove-docs')).toMatch(/^FROM \$\{NGINX_IMAGE\}/);
    expect(dockerfile).toMatch(/^ARG NGINX_IMAGE=nginxinc\/nginx-unprivileged:/m);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-[a-z]+-slim$/m);
    expect(dockerfile).not.toMatch(/^HEALTHCHECK/m);
    for (const target of ['trove', 'trove-docs'])
      expect(stages.get(target)).toContain('org.opencontainers.image.source=');
  });

  it('installs ffmpeg in the worker image only', () => {
    expect([...stages].filter(([, body]) => /apt-get install[^\n]*ffmpeg/.test(body)).map(([name]) => name)).toEqual([
      'trove-worker',
    ]);
  });

  it('knows every workspace (a new one must be added to the dependency layer)', () => {
    const copied = [...stages.get('build')!.matchAll(/^COPY (\S+)\/package\.json /gm)].map((m) => m[1]);
    expect(copied.sort()).toEqual([...workspaces].sort());
  });

  it('ships every entry point the chart runs, and production dependencies only', () => {
    const objects = render();
    for (const d of byKind(objects, 'Deployment')) {
      const command = containerOf(d).command;
      if (!command) continue; // the docs site: nginx's own
      const entry = command[1];
      const source = entry.replace(/^(services\/[a-z]+)\/dist\/main\.js$/, '$1/src/main.ts');
      expect({ entry, exists: existsSync(join(REPO, source)) }).toEqual({ entry, exists: true });
      const image = d.metadata.name.endsWith('-worker') ? 'trove-worker' : 'trove';
      const dir = entry.startsWith('web/') ? 'web/server.mjs' : entry.replace(/\/main\.js$/, '');
      const copiedInto = [...stages].filter(([, body]) => body.includes(`/src/${dir} `)).map(([name]) => name);
      expect({
        entry,
        copiedInto: copiedInto.some((s) => s === image || (image === 'trove-worker' && s === 'trove')),
      }).toEqual({ entry, copiedInto: true });
    }
    expect(stages.get('prod-deps')).toMatch(/npm install --omit=dev/);
  });

  it('.dockerignore keeps installed packages, build output, data and git out of the context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['**/node_modules', '**/dist', 'data', '.git', '**/.env']) expect(ignored).toContain(entry);
  });
});

describe('skaffold.yaml', () => {
  const config = parse(read('skaffold.yaml')) as {
    build: { artifacts: { image: string; docker: { target: string } }[] };
    deploy: { helm: { releases: { chartPath: string; setValueTemplates: Record<string, string> }[] } };
    profiles: {
      name: string;
      patches?: { path: string; value: unknown }[];
      manifests?: { kustomize: { paths: string[] } };
    }[];
  };

  it('builds the three images and deploys the chart with them', () => {
    expect(config.build.artifacts.map((a) => a.docker.target)).toEqual(['trove', 'trove-worker', 'trove-docs']);
    const release = config.deploy.helm.releases[0];
    expect(existsSync(join(REPO, release.chartPath, 'Chart.yaml'))).toBe(true);
    const values = parse(read('charts/trove/values.yaml')) as Record<string, unknown>;
    for (const key of Object.keys(release.setValueTemplates))
      expect({ key, known: at(values, key) !== undefined }).toEqual({ key, known: true });
  });

  it('has a dev profile (file sync, one replica, writable root) and a home-lab profile (overlay and values)', () => {
    const dev = config.profiles.find((p) => p.name === 'dev');
    const homeLab = config.profiles.find((p) => p.name === 'home-lab');
    expect(dev?.patches?.filter((p) => p.path.endsWith('/sync')).length).toBeGreaterThan(0);
    const devValues = dev?.patches?.find((p) => p.path.endsWith('/setValues'))?.value as Record<string, unknown>;
    expect(devValues).toMatchObject({ 'autoscaling.worker.enabled': false, readOnlyRootFilesystem: false });
    expect(homeLab?.manifests?.kustomize.paths).toEqual(['k8s/overlays/home-lab']);
    const files = homeLab?.patches?.find((p) => p.path.endsWith('/valuesFiles'))?.value as string[];
    for (const file of files) expect(problems(render({ values: [join(REPO, file)] }))).toEqual([]);
  });
});

describe('.github/workflows/ci.yml', () => {
  type Step = { run?: string; uses?: string; with?: Record<string, unknown> };
  type Job = {
    services?: Record<string, { image: string; env?: Record<string, string> }>;
    env?: Record<string, string>;
    steps: Step[];
    needs?: string[];
  };
  const workflow = parse(read('.github/workflows/ci.yml')) as { on: unknown; jobs: Record<string, Job> };
  const runs = (job: Job) => job.steps.map((s) => s.run ?? '').join('\n');

  it('runs make test', () => {
    expect(Object.values(workflow.jobs).some((job) => /^make test$/m.test(runs(job)))).toBe(true);
  });

  it('runs the dependency audit, and fails when the registry skipped it', () => {
    expect(Object.values(workflow.jobs).some((job) => /^node scripts\/audit\.mjs --require$/m.test(runs(job)))).toBe(
      true,
    );
  });

  it('runs both store contract suites against MongoDB 7 and MinIO service containers, with the variables the suites read', () => {
    const job = workflow.jobs.contracts;
    const images = Object.values(job.services ?? {}).map((s) => s.image);
    expect(images).toContain('mongo:7');
    expect(images.some((i) => /minio/.test(i))).toBe(true);
    const script = runs(job);
    const suites = [
      'services/kit/src/docstore/docstore.contract.test.ts',
      'services/kit/src/blobstore/blobstore.contract.test.ts',
    ];
    for (const suite of suites) {
      expect(script).toContain(suite);
      expect(existsSync(join(REPO, suite))).toBe(true);
    }
    // Every TROVE_TEST_ variable the suites read is set, and every one set is read.
    const read_ = new Set(suites.flatMap((s) => read(s).match(/TROVE_TEST_[A-Z0-9_]+/g) ?? []));
    expect(Object.keys(job.env ?? {}).sort()).toEqual([...read_].sort());
    const minio = Object.values(job.services ?? {}).find((s) => /minio/.test(s.image));
    expect(job.env?.TROVE_TEST_S3_ACCESS_KEY_ID).toBe(minio?.env?.MINIO_ROOT_USER);
    expect(job.env?.TROVE_TEST_S3_SECRET_ACCESS_KEY).toBe(minio?.env?.MINIO_ROOT_PASSWORD);
    // A skipped run fails the job.
    expect(script).toMatch(/MongoDB run skipped\|skipping the external S3 contract run/);
  });

  it('builds every image, installs the chart on kind, waits for the rollouts and runs the API smoke test', () => {
    const job = workflow.jobs.images;
    const script = runs(job);
    expect(script).toMatch(/for target in trove trove-worker trove-docs; do\s+docker buildx build/);
    expect(job.steps.some((s) => s.uses?.startsWith('helm/kind-action@'))).toBe(true);
    expect(script).toMatch(/helm install trove charts\/trove/);
    expect(script).toMatch(/rollout status/);
    expect(script).toContain('node scripts/smoke-api.mjs');
    expect(existsSync(join(REPO, 'scripts', 'smoke-api.mjs'))).toBe(true);
  });
});
