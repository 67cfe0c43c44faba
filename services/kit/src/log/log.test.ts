import { Writable } from 'node:stream';
import { createLogger, runWithContext } from './index';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { lines, destination };
}

describe('log', () => {
  it('writes structured JSON with the service name and request context', async () => {
    const { lines, destination } = capture();
    const log = createLogger({ service: 'media', destination });
    await runWithContext({ requestId: 'req-1', userId: 'user-1' }, async () => {
      await Promise.resolve();
      log.info({ itemId: 'x' }, 'hello');
    });
    log.info('outside');
    expect(lines[0]).toMatchObject({
      service: 'media',
      level: 'info',
      msg: 'hello',
      requestId: 'req-1',
      userId: 'user-1',
      itemId: 'x',
    });
    expect(typeof lines[0].time).toBe('string');
    expect(lines[1].requestId).toBeUndefined();
  });

  it('never writes secrets', () => {
    const { lines, destination } = capture();
    const log = createLogger({ service: 'auth', destination });
    log.info(
      {
        password: 'hunter2',
        body: { password: 'x', refreshToken: 'r' },
        accessToken: 'a',
        req: { headers: { authorization: 'Bearer t' } },
      },
      'login',
    );
    const text = JSON.stringify(lines[0]);
    for (const secret of ['hunter2', '"x"', '"r"', '"a"', 'Bearer t']) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });
});
