import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The service a process runs, from the package that holds its entrypoint: `@trove/gateway` →
 * `gateway`. Every service's package.json already names it, so nothing else has to.
 */
export function entrypointServiceName(entrypoint = require.main?.filename ?? process.argv[1]): string {
  let dir = entrypoint ? dirname(entrypoint) : process.cwd();
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const name = (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name;
      if (name) return name.replace(/^@[^/]+\//, '');
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}
