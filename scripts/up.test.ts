/**
 * `make up` end to end: scripts/up.mjs starts nats-server and one process per service, the gateway
 * answers, and SIGINT (what Ctrl-C sends) leaves no process behind.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { freePort, startProcess, tempDir } from '../services/kit/src/testing';

const SERVICES = ['auth', 'media', 'library', 'explore', 'jobs', 'worker', 'gateway'];

function descendants(pid: number): Array<{ pid: number; cmd: string }> {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), cmd: m[3] }));
  const out: Array<{ pid: number; cmd: string }> = [];
  const walk = (p: number) => {
    for (const r of rows.filter((x) => x.ppid === p)) {
      out.push({ pid: r.pid, cmd: r.cmd });
      walk(r.pid);
    }
  };
  walk(pid);
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('make up', () => {
  it('starts nats-server and every service, answers /version, and Ctrl-C stops them all', async () => {
    const data = await tempDir('trove-up-');
    const gatewayPort = await freePort();
    const natsPort = await freePort();
    const docsPort = await freePort();
    const webPort = await freePort();
    const up = startProcess('up', join(__dirname, 'up.mjs'), {
      TROVE_DATA_DIR: data.path,
      TROVE_GATEWAY_PORT: String(gatewayPort),
      TROVE_NATS_PORT: String(natsPort),
      TROVE_DOCS_PORT: String(docsPort),
      TROVE_WEB_PORT: String(webPort),
      TROVE_NATS_URL: '',
      TROVE_ADMIN_PASSWORD: '',
    });
    try {
      await up.waitForOutput('Trove is up', 90_000);
      const version = await (await fetch(`http://127.0.0.1:${gatewayPort}/version`)).json();
      expect(version).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), gitSha: expect.any(String) });

      const procs = descendants(up.child.pid!);
      expect(procs.filter((p) => /nats-server/.test(p.cmd))).toHaveLength(1);
      for (const s of SERVICES) {
        expect(procs.filter((p) => p.cmd.includes(join('services', s, 'dist', 'main.js')))).toHaveLength(1);
      }
      // The web app: one process, answering the browser (a visitor without a session goes to the login page).
      expect(procs.filter((p) => p.cmd.includes(join('web', 'server.mjs')))).toHaveLength(1);
      const home = await fetch(`http://127.0.0.1:${webPort}/`, { redirect: 'manual' });
      expect(home.status).toBe(302);
      expect(home.headers.get('location')).toBe('/login');
      expect((await fetch(`http://127.0.0.1:${webPort}/login`)).status).toBe(200);

      up.child.kill('SIGINT');
      await up.waitForOutput('all stopped', 30_000);
      const code = await up.stop();
      expect(code).toBe(0);
      for (const p of procs) expect(alive(p.pid)).toBe(false);
    } finally {
      await up.stop();
      await data.remove();
    }
  });
});
