import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The `version` of the package.json one level above a compiled service's `dist/` directory. */
export function packageVersion(distDir: string): string {
  const pkg = JSON.parse(readFileSync(join(distDir, '..', 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/**
 * The git commit the build came from: TROVE_GIT_SHA (set by CI or the image build) or the
 * build-info.json that `make build` writes next to the package, else "unknown".
 */
export function gitSha(distDir: string, env = process.env): string {
  if (env.TROVE_GIT_SHA) return env.TROVE_GIT_SHA;
  const file = join(distDir, '..', 'build-info.json');
  if (existsSync(file)) {
    try {
      return (JSON.parse(readFileSync(file, 'utf8')) as { gitSha?: string }).gitSha ?? 'unknown';
    } catch {
      return 'unknown';
    }
  }
  return 'unknown';
}
