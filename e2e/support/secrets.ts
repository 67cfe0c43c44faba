/**
 * Secrets must never reach a log line. A suite records every secret it handles (the stack's own,
 * each user's password and tokens) and, after its scenarios, checks the output of every process it
 * ran: `expectNoSecretsInLogs(stack, secrets)`. The stack captures each process's stdout and
 * stderr (`ServiceProcess.output()`), so what a service printed is all there.
 */
import { readFileSync } from 'node:fs';
import { secretPath } from '@trove/kit/secrets';
import type { ServiceProcess, Stack } from '@trove/kit/testing';
import type { Tokens } from './api';

export interface Secret {
  /** What it is, for the failure message (never the value itself). */
  what: string;
  value: string;
}

/** Shorter values would match by chance; every secret of Trove is longer. */
const MIN_SECRET_LENGTH = 8;

/** The secrets a suite handled, gathered as it goes. */
export class SecretLedger {
  private readonly recorded: Secret[] = [];

  add(what: string, value: string): void {
    if (value.length < MIN_SECRET_LENGTH)
      throw new Error(`${what} is too short to look for in logs (${value.length} characters)`);
    this.recorded.push({ what, value });
  }

  /** A user's password. */
  password(username: string, password: string): void {
    this.add(`the password of ${username}`, password);
  }

  /** A token pair the auth service issued. */
  tokens(username: string, tokens: Pick<Tokens, 'accessToken' | 'refreshToken'>): void {
    this.add(`an access token of ${username}`, tokens.accessToken);
    this.add(`a refresh token of ${username}`, tokens.refreshToken);
  }

  list(): Secret[] {
    return [...this.recorded];
  }
}

/**
 * The secrets a stack runs with: the administrator's password (and the Basic header carrying it),
 * the access-token key, the content-URL signing key and the NATS password or token, whether set
 * in its environment or generated under its data dir.
 */
export function stackSecrets(stack: Stack): Secret[] {
  const secrets: Secret[] = [
    { what: 'the admin password', value: stack.adminPassword },
    {
      what: 'the admin Basic credentials',
      value: Buffer.from(`${stack.adminUsername}:${stack.adminPassword}`).toString('base64'),
    },
    { what: 'the JWT secret', value: stack.jwtSecret },
  ];
  const fromEnvOrDataDir = (what: string, variable: string, generatedName?: string) => {
    const value = stack.env[variable] || (generatedName ? readGenerated(stack.dataDir, generatedName) : undefined);
    if (value) secrets.push({ what, value });
  };
  fromEnvOrDataDir('the URL-signing secret', 'TROVE_URL_SIGNING_SECRET', 'url-signing-secret');
  fromEnvOrDataDir('the NATS password', 'TROVE_NATS_PASSWORD');
  fromEnvOrDataDir('the NATS token', 'TROVE_NATS_TOKEN');
  // Each service's own NATS password (the stack gives every service its user).
  for (const u of stack.nats.users) secrets.push({ what: `the NATS password of ${u.user}`, value: u.password });
  return secrets;
}

function readGenerated(dataDir: string, name: string): string | undefined {
  try {
    return readFileSync(secretPath(dataDir, name), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The spellings a secret could be printed in: as it is, escaped inside a JSON string (pino's
 * lines are JSON), and a JWT's signature on its own (a token cut into parts is still a token).
 */
function spellings(value: string): string[] {
  const forms = new Set([value, JSON.stringify(value).slice(1, -1)]);
  const jwtParts = value.split('.');
  if (jwtParts.length === 3 && jwtParts[2]!.length >= MIN_SECRET_LENGTH) forms.add(jwtParts[2]!);
  return [...forms];
}

/**
 * Where secrets appear in processes' output: one finding per process and secret, naming the line
 * with the secret masked (so a failure report does not spread it further).
 */
export function secretsInLogs(processes: ServiceProcess[], secrets: Secret[]): string[] {
  const findings: string[] = [];
  for (const proc of processes) {
    const lines = proc.output().split('\n');
    for (const secret of secrets) {
      const forms = spellings(secret.value);
      const index = lines.findIndex((line) => forms.some((f) => line.includes(f)));
      if (index < 0) continue;
      const masked = forms.reduce((line, f) => line.split(f).join('[SECRET]'), lines[index]!);
      findings.push(`${proc.name} printed ${secret.what} (output line ${index + 1}): ${masked.slice(0, 300)}`);
    }
  }
  return findings;
}

/**
 * Fails when the output of any of the stack's processes (plus `extra` ones, e.g. from
 * `stack.startExtra`) contains one of `secrets`. A process restarted with `stack.startService`
 * replaces the old one in `stack.processes`: check before restarting if that output matters.
 */
export function expectNoSecretsInLogs(stack: Stack, secrets: Secret[], extra: ServiceProcess[] = []): void {
  const processes = [...Object.values(stack.processes), ...extra];
  if (processes.length === 0) throw new Error('no process output to look at');
  expect(secretsInLogs(processes, secrets)).toEqual([]);
}
