import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { READY_MESSAGE } from '../service/run';
import { natsServiceUsers } from '../bus/nats-users';
import type { NatsUser } from '../bus/nats-users';
import { startNatsServer } from './nats-server';
import type { NatsServerHandle } from './nats-server';
import { freePort } from './ports';
import { startProcess } from './process';
import type { ServiceProcess } from './process';
import { tempDir } from './temp';
import { waitFor } from './wait';

export interface StackOptions {
  /** Services to run, by folder name under `services/` (e.g. `['auth', 'gateway']`). */
  services: string[];
  /** Extra variables for every service (override the stack's defaults). */
  env?: Record<string, string>;
  /** Extra variables for one service, by name. */
  serviceEnv?: Record<string, Record<string, string>>;
  /** How long each service may take to print `service ready` (default 60 s). */
  readyTimeoutMs?: number;
}

export interface Stack {
  /** `http://127.0.0.1:<port>`: where the gateway listens (when it is one of the services). */
  gatewayUrl: string;
  /** The data directory every service shares, as under `make up`. */
  dataDir: string;
  adminUsername: string;
  adminPassword: string;
  /** The access-token signing secret every service was given (sign test tokens with it). */
  jwtSecret: string;
  nats: NatsServerHandle;
  /**
   * NATS credentials: each service's own (its user, with the allow-lists of proto-events'
   * permissions, as under `make up` and the chart), and `observer`, a user allowed everything, for
   * tests that read streams or call services directly.
   */
  natsCredentials(user: string): { user: string; pass: string };
  /** The running processes by service name; replaced when a service is started again. */
  processes: Record<string, ServiceProcess>;
  /** The variables every service was started with (without the NATS user each got: see `envFor`). */
  env: Record<string, string>;
  /** The variables a process of `service` needs to join the stack: `env` plus that service's NATS user. */
  envFor(service: string): Record<string, string>;
  /** Starts (or restarts, after `processes[name].stop()` or `.kill()`) one service and waits until it is ready. */
  startService(name: string): Promise<ServiceProcess>;
  /**
   * Starts one more process on the stack — a replica of a service (`entry` = `serviceEntry(name)`)
   * or another program that reads the same variables, such as the web server — with the stack's
   * variables plus `env`, and waits until it is ready (a gateway: until its /health/ready answers
   * 200). `stop()` stops it with the rest.
   */
  startExtra(name: string, entry: string, env?: Record<string, string>): Promise<ServiceProcess>;
  /** Stops every service and extra process, then nats-server, then removes the data directory. */
  stop(): Promise<void>;
}

/** The repository root, from `services/kit/src/testing` (ts-jest) or `services/kit/dist/testing` (compiled). */
const REPO_ROOT = resolve(__dirname, '..', '..', '..', '..');

/** The compiled entry point of a service, as `make up` runs it. */
export function serviceEntry(name: string): string {
  return join(REPO_ROOT, 'services', name, 'dist', 'main.js');
}

/**
 * A real Trove for end-to-end tests: a fresh nats-server, then each named service as its own process
 * from its compiled `dist/main.js` (build first: `npx tsc -b tsconfig.build.json`), all sharing a
 * temporary data directory, with a fixed admin password and JWT secret the tests can use, the
 * gateway checking every answer against openapi.yaml (TROVE_VALIDATE_RESPONSES) and trusting
 * X-Forwarded-For from loopback (TROVE_TRUSTED_PROXIES), so tests can play clients at any address. Resolves once every
 * service printed `service ready` and, when the gateway runs, its /health/ready answers 200.
 */
export async function startStack(opts: StackOptions): Promise<Stack> {
  for (const name of opts.services) {
    if (!existsSync(serviceEntry(name)))
      throw new Error(`${serviceEntry(name)} is missing: build first (npx tsc -b tsconfig.build.json)`);
  }
  const observer: NatsUser = { user: 'observer', password: randomBytes(18).toString('base64url') };
  const serviceUsers = natsServiceUsers(() => randomBytes(18).toString('base64url'));
  const nats = await startNatsServer({ users: [...serviceUsers, observer] });
  const natsCredentials = (user: string) => {
    const found = nats.users.find((u) => u.user === user);
    if (!found) throw new Error(`no NATS user ${user}`);
    return { user: found.user, pass: found.password };
  };
  /** The NATS user of a process: the service whose entry point it runs; another program (the web server) gets none. */
  const natsEnvOf = (entry: string): Record<string, string> => {
    const service = serviceUsers.find((u) => entry === serviceEntry(u.user));
    return service ? { TROVE_NATS_USER: service.user, TROVE_NATS_PASSWORD: service.password } : {};
  };
  const data = await tempDir('trove-stack-');
  const port = await freePort();
  const adminUsername = 'admin';
  const adminPassword = randomBytes(18).toString('base64url');
  const jwtSecret = randomBytes(32).toString('base64url');
  const env: Record<string, string> = {
    TROVE_NATS_URL: nats.url,
    TROVE_DATA_DIR: data.path,
    TROVE_GATEWAY_HOST: '127.0.0.1',
    TROVE_GATEWAY_PORT: String(port),
    TROVE_ADMIN_USERNAME: adminUsername,
    TROVE_ADMIN_PASSWORD: adminPassword,
    TROVE_JWT_SECRET: jwtSecret,
    TROVE_VALIDATE_RESPONSES: 'true',
    // Tests play many clients from loopback with X-Forwarded-For; a real gateway trusts no proxy unless told.
    TROVE_TRUSTED_PROXIES: 'loopback',
    // A request waits for a busy service rather than answering 503 after the default 5 s: the suites
    // share a loaded CI machine. A test about the timeout sets its own (e.g. on a `startExtra` gateway).
    TROVE_RPC_TIMEOUT_MS: '30000',
    // Likewise a login waits for its password hash instead of a 429 after 3 s when suites log many users in
    // at once (the login-burst suite sets its own).
    TROVE_AUTH_HASH_WAIT_MS: '20000',
    TROVE_LOG_LEVEL: 'info',
    // Each service gets its own NATS user (natsEnvOf); none from the developer's shell.
    TROVE_NATS_USER: '',
    TROVE_NATS_PASSWORD: '',
    TROVE_NATS_TOKEN: '',
    TROVE_NATS_CREDS_FILE: '',
    // Embedded stores and no exporter, whatever the developer's shell has set.
    TROVE_MONGODB_URL: '',
    TROVE_S3_BUCKET: '',
    TROVE_OTLP_ENDPOINT: '',
    ...opts.env,
  };
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const processes: Record<string, ServiceProcess> = {};
  const extras: ServiceProcess[] = [];
  // Generous: five services loading at once on a shared 2-core CI machine can take this long.
  const readyTimeoutMs = opts.readyTimeoutMs ?? 60_000;

  /** Waits until a started process is ready: it printed `service ready`, and a gateway answers /health/ready. */
  const ready = async (
    proc: ServiceProcess,
    entry: string,
    procEnv: Record<string, string>,
  ): Promise<ServiceProcess> => {
    await proc.waitForOutput(READY_MESSAGE, readyTimeoutMs);
    if (entry === serviceEntry('gateway')) {
      const url = `http://127.0.0.1:${procEnv.TROVE_GATEWAY_PORT}/health/ready`;
      await waitFor(async () => (await fetch(url)).ok, {
        timeoutMs: readyTimeoutMs,
        what: `${proc.name} /health/ready`,
      });
    }
    return proc;
  };

  const startService = async (name: string): Promise<ServiceProcess> => {
    const procEnv = { ...env, ...natsEnvOf(serviceEntry(name)), ...opts.serviceEnv?.[name] };
    const proc = startProcess(name, serviceEntry(name), procEnv);
    processes[name] = proc;
    return ready(proc, serviceEntry(name), procEnv);
  };

  const startExtra = async (
    name: string,
    entry: string,
    extraEnv: Record<string, string> = {},
  ): Promise<ServiceProcess> => {
    const procEnv = { ...env, ...natsEnvOf(entry), ...extraEnv };
    const proc = startProcess(name, entry, procEnv);
    extras.push(proc);
    return ready(proc, entry, procEnv);
  };

  const stop = async () => {
    await Promise.allSettled([...Object.values(processes), ...extras].map((p) => p.stop()));
    await nats.stop();
    await data.remove();
  };

  try {
    // In parallel: each service waits for NATS itself, and starts do not depend on each other.
    await Promise.all(opts.services.map((name) => startService(name)));
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    gatewayUrl,
    dataDir: data.path,
    adminUsername,
    adminPassword,
    jwtSecret,
    nats,
    natsCredentials,
    envFor: (service: string) => ({ ...env, ...natsEnvOf(serviceEntry(service)) }),
    processes,
    env,
    startService,
    startExtra,
    stop,
  };
}
