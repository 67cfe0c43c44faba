import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { userDeletedEvent } from './auth-contracts';
import { catalogue } from './catalogue';
import { STREAMS } from './contract';
import { validate } from './validate';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const generator = require('../scripts/generate.cjs') as { renderCatalogue(c: unknown): string };

const root = join(__dirname, '..');

describe('proto-events catalogue', () => {
  it('has unique, versioned subjects in the right stream', () => {
    const subjects = catalogue.map((c) => c.subject);
    expect(new Set(subjects).size).toBe(subjects.length);
    for (const c of catalogue) {
      expect(c.subject).toMatch(/\.v\d+\./);
      if (c.kind === 'event')
        expect(c.subject).toMatch(c.stream === STREAMS.deadLetters.name ? /^dlq\.work\.v1\./ : /^events\.v1\./);
      if (c.kind === 'work') expect(c.subject.startsWith('work.v1.')).toBe(true);
      if (c.kind !== 'rpc')
        expect([STREAMS.events.name, STREAMS.work.name, STREAMS.deadLetters.name]).toContain(c.stream);
    }
  });

  it('every schema compiles and has a title', () => {
    for (const c of catalogue) {
      const schemas = c.kind === 'rpc' ? [c.request, c.response] : [c.payload];
      for (const s of schemas) {
        expect(typeof s.title).toBe('string');
        expect(() => validate(s, {})).not.toThrow();
      }
    }
  });

  it('validates payloads and explains what is wrong', () => {
    const ok = validate(userDeletedEvent.payload, {
      userId: '7c0f5e8e-8f43-4a43-9d5e-1b8f4f4b2a10',
      deletedAt: new Date().toISOString(),
    });
    expect(ok).toEqual({ valid: true, errors: [] });
    const bad = validate(userDeletedEvent.payload, { userId: 'nope' });
    expect(bad.valid).toBe(false);
    expect(bad.errors.join(' ')).toMatch(/userId/);
    expect(bad.errors.join(' ')).toMatch(/deletedAt/);
  });

  it('derived types are up to date with the schemas', () => {
    // json-schema-to-typescript formats with prettier (dynamic import): run it in plain node.
    const out = spawnSync(process.execPath, [join(root, 'scripts', 'generate.cjs'), '--check'], { encoding: 'utf8' });
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
  });

  it('CATALOGUE.md is up to date with the catalogue', () => {
    const committed = readFileSync(join(root, 'CATALOGUE.md'), 'utf8');
    expect(committed).toBe(generator.renderCatalogue(catalogue));
  });
});
