/**
 * The vision runtime: the committed model files are the ones their manifest names, the wasm
 * backend starts without leaving its process-wide handlers behind, and a model that cannot be
 * loaded fails as such and is tried again by the next caller.
 */
import { createHash } from 'node:crypto';
import { copyFile, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { TempDir } from '@trove/kit/testing';
import { tempDir } from '@trove/kit/testing';
import {
  letterbox,
  MODELS_DIR,
  ModelLoadError,
  onnxModelPath,
  packageRoot,
  sharedModel,
  sharedSession,
  tf,
  visionRuntime,
} from '.';

interface Manifest {
  model: string;
  source: { package: string; version: string; integrity: string };
  /** Each copied from the package (`from`), or converted from such a file by a script of the worker's (`convertedBy`). */
  files: Record<string, { from?: string; convertedBy?: string; convertedFrom?: string; bytes: number; sha256: string }>;
}

const manifest = async (name: string) =>
  JSON.parse(await readFile(join(MODELS_DIR, name, 'manifest.json'), 'utf8')) as Manifest;
const modelNames = async () =>
  (await readdir(MODELS_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);

describe('model files', () => {
  it('are found at the root of the worker package, from src/ as from dist/', () => {
    const root = join(__dirname, '..', '..', '..');
    expect(packageRoot(__dirname)).toBe(root);
    expect(packageRoot(join(root, 'dist', 'components', 'vision'))).toBe(root);
    expect(MODELS_DIR).toBe(join(root, 'models'));
  });

  it('each committed model is exactly the files its manifest lists, with their sha256', async () => {
    const names = await modelNames();
    expect(names).toEqual(expect.arrayContaining(['centernet', 'blazeface-back', 'faceres', 'ppocr-v4']));
    for (const name of names) {
      const { model, files } = await manifest(name);
      expect(model).toBe(name);
      expect((await readdir(join(MODELS_DIR, name))).sort()).toEqual(
        [...Object.keys(files), 'README.md', 'manifest.json'].sort(),
      );
      for (const [file, { bytes, sha256 }] of Object.entries(files)) {
        const data = await readFile(join(MODELS_DIR, name, file));
        expect([file, data.length, createHash('sha256').update(data).digest('hex')]).toEqual([file, bytes, sha256]);
      }
    }
  });

  it("the README of each model gives the manifest's source and sha256s", async () => {
    for (const name of await modelNames()) {
      const { source, files } = await manifest(name);
      const readme = await readFile(join(MODELS_DIR, name, 'README.md'), 'utf8');
      expect(readme).toContain(`${source.package}@${source.version}`);
      expect(readme).toContain(source.integrity);
      for (const [file, { from, convertedBy, convertedFrom, sha256 }] of Object.entries(files)) {
        if (from) expect(readme).toContain(from.replace(/^package\//, ''));
        else {
          // A converted file: from a file copied from the package, by a script that is there.
          expect([file, files[convertedFrom!]?.from]).toEqual([file, expect.any(String)]);
          expect(readme).toContain(convertedBy);
          await readFile(join(packageRoot(__dirname), convertedBy!));
        }
        expect(readme).toContain(sha256);
      }
    }
  });
});

describe('visionRuntime', () => {
  it('without tfjs-node: the wasm backend, set up once, its Emscripten process handlers removed', async () => {
    const before = {
      uncaught: process.listeners('uncaughtException'),
      unhandled: process.listeners('unhandledRejection'),
    };
    expect(() => require.resolve('@tensorflow/tfjs-node')).toThrow();
    const runtime = await visionRuntime();
    expect(runtime).toEqual({ backend: 'wasm' });
    expect(tf.getBackend()).toBe('wasm');
    expect(await visionRuntime()).toBe(runtime);
    expect(process.listeners('uncaughtException')).toEqual(before.uncaught);
    expect(process.listeners('unhandledRejection')).toEqual(before.unhandled);
  });
});

describe('sharedModel', () => {
  let dir: TempDir;
  beforeAll(async () => {
    dir = await tempDir('trove-vision-');
  });
  afterAll(() => dir.remove());

  it('a model that cannot be loaded is a ModelLoadError; the failure is not kept, the next call loads it', async () => {
    const jsonPath = dir.file('centernet.json');
    const load = sharedModel('centernet', { jsonPath });
    const failed = (await load().catch((e: unknown) => e)) as ModelLoadError;
    expect(failed).toBeInstanceOf(ModelLoadError);
    expect(failed.message).toMatch(/^the centernet model cannot be loaded: .*ENOENT/);

    for (const file of ['centernet.json', 'centernet.bin'])
      await copyFile(join(MODELS_DIR, 'centernet', file), dir.file(file));
    const tensors = tf.memory().numTensors;
    const model = await load();
    expect(model.inputs[0].shape).toEqual([1, 512, 512, 3]);
    // Loaded once: a second call shares it.
    expect(await load()).toBe(model);
    model.dispose();
    expect(tf.memory().numTensors).toBe(tensors);
  });

  it('damaged weights are a ModelLoadError too', async () => {
    const jsonPath = dir.file('short.json');
    await copyFile(join(MODELS_DIR, 'centernet', 'centernet.json'), jsonPath);
    await dir.write('centernet.bin', Buffer.alloc(1000));
    await expect(sharedModel('short', { jsonPath })()).rejects.toBeInstanceOf(ModelLoadError);
  });
});

describe('sharedSession', () => {
  let dir: TempDir;
  beforeAll(async () => {
    dir = await tempDir('trove-onnx-session-');
  });
  afterAll(() => dir.remove());

  it('an ONNX model that cannot be loaded is a ModelLoadError; the failure is not kept, the next call loads it', async () => {
    const path = dir.file('blazeface-back.onnx');
    const load = sharedSession('blazeface-back', { path });
    const missing = (await load().catch((e: unknown) => e)) as ModelLoadError;
    expect(missing).toBeInstanceOf(ModelLoadError);
    expect(missing.message).toMatch(/^the blazeface-back model cannot be loaded: /);
    await dir.write('blazeface-back.onnx', Buffer.alloc(1000, 7));
    await expect(load()).rejects.toBeInstanceOf(ModelLoadError);

    await copyFile(onnxModelPath('blazeface-back'), path);
    const session = await load();
    expect(session.inputNames).toEqual(['input']);
    expect(await load()).toBe(session);
  });
});

describe('letterbox', () => {
  it.each([1, 2, 3, 4])(
    'a 30x20 picture of %i channels: scaled to fit 64x64, centred between black bars, RGB',
    async (channels) => {
      // Grey 200, opaque where there is an alpha channel.
      const data = Buffer.alloc(30 * 20 * channels, 200);
      if (channels % 2 === 0) for (let i = channels - 1; i < data.length; i += channels) data[i] = 255;
      const { rgb, size, scale, left, top } = await letterbox({ data, width: 30, height: 20, channels }, 64);
      // 43 rows of picture (20 × 64/30, rounded), 10 black rows above and 11 below.
      expect([rgb.length, size, left, top]).toEqual([64 * 64 * 3, 64, 0, 10]);
      expect(scale).toBeCloseTo(64 / 30);
      const pixel = (x: number, y: number) => [...rgb.subarray((y * 64 + x) * 3, (y * 64 + x) * 3 + 3)];
      expect(pixel(32, 5)).toEqual([0, 0, 0]);
      expect(pixel(32, 32)).toEqual([200, 200, 200]);
      expect(pixel(32, 60)).toEqual([0, 0, 0]);
    },
  );
});
