/**
 * Test support for the models vendored as ONNX conversions of tfjs graphs: the committed `.onnx` must be what the
 * converter named in the model's manifest makes from the package's files, byte for byte (the converter is
 * deterministic, so `vendor-models.sh` can check a fresh copy).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MODELS_DIR, packageRoot } from '.';

interface Converted {
  convertedBy: string;
  convertedFrom: string;
  outputs: string[];
  sha256: string;
}

/** Converts `model`'s `file` again into `out` and expects the manifest's sha256 and the committed bytes. */
export async function expectConversionReproduced(model: string, file: string, out: string): Promise<void> {
  const manifest = JSON.parse(await readFile(join(MODELS_DIR, model, 'manifest.json'), 'utf8')) as {
    files: Record<string, Converted>;
  };
  const converted = manifest.files[file]!;
  expect(converted.convertedBy).toBe('scripts/tfjs-to-onnx.mjs');
  const worker = packageRoot(__dirname);
  await promisify(execFile)(
    process.execPath,
    [
      join(worker, converted.convertedBy),
      join(MODELS_DIR, model, converted.convertedFrom),
      out,
      '--outputs',
      converted.outputs.join(','),
    ],
    { timeout: 60_000 },
  );
  const bytes = await readFile(out);
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(converted.sha256);
  expect(bytes.equals(await readFile(join(MODELS_DIR, model, file)))).toBe(true);
}
