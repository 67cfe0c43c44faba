/**
 * PP-OCRv4 (models/ppocr-v4) on onnxruntime-node's CPU build: a DB detector finds text lines (at any angle), a CTC
 * recogniser reads each one. Detection is also the component's cheap test for "is there text at all": a photo
 * without text costs one detector pass (~150–250 ms on a 960 px picture) and nothing else.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import type { Bitmap } from '../bitmap';
import { sharp } from '../previews/sharp';
import { MODELS_DIR } from '../vision/model-files';
import { SESSION_OPTIONS } from '../vision/onnx';

const DIR = join(MODELS_DIR, 'ppocr-v4');
/** Long side of the detector's input: small text in a 2048 px photo is still a few pixels high there. */
const DETECT_SIDE = 960;
/** DB's usual settings: pixel threshold, a line's mean probability, how far a shrunk region grows back. */
const PIXEL_THRESHOLD = 0.3;
const BOX_THRESHOLD = 0.6;
const UNCLIP_RATIO = 1.5;
const REC_HEIGHT = 48;
const MAX_REC_WIDTH = 3200;
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

export interface Models {
  det: ort.InferenceSession;
  rec: ort.InferenceSession;
  /** CTC classes: 0 blank, then the dictionary, then a space. */
  charset: string[];
}

export async function loadModels(): Promise<Models> {
  const det = await ort.InferenceSession.create(join(DIR, 'ch_PP-OCRv4_det_infer.onnx'), SESSION_OPTIONS);
  const rec = await ort.InferenceSession.create(join(DIR, 'ch_PP-OCRv4_rec_infer.onnx'), SESSION_OPTIONS);
  const keys = readFileSync(join(DIR, 'ppocr_keys_v1.txt'), 'utf8')
    .replace(/\r?\n$/, '')
    .split(/\r?\n/);
  return { det, rec, charset: ['', ...keys, ' '] };
}

/** A text line: centre, length along the writing and thickness across it, angle of the writing (radians). */
export interface LineBox {
  cx: number;
  cy: number;
  len: number;
  thick: number;
  angle: number;
}

export interface ReadLine {
  text: string;
  /** Mean probability of the characters read (0..1). */
  confidence: number;
  box: LineBox;
}

const rawOf = (b: { width: number; height: number; channels: number }) => ({
  raw: { width: b.width, height: b.height, channels: b.channels as 1 | 2 | 3 | 4 },
});

/** The text lines of a picture, in its own pixels. */
export async function detectLines({ det }: Models, picture: Bitmap): Promise<LineBox[]> {
  const scale = Math.min(1, DETECT_SIDE / Math.max(picture.width, picture.height));
  const w = Math.max(32, Math.round((picture.width * scale) / 32) * 32);
  const h = Math.max(32, Math.round((picture.height * scale) / 32) * 32);
  const px = await sharp(picture.data, rawOf(picture)).resize(w, h, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const input = new Float32Array(3 * w * h);
  for (let i = 0; i < w * h; i++)
    for (let c = 0; c < 3; c++) input[c * w * h + i] = (px[i * 3 + c]! / 255 - MEAN[c]!) / STD[c]!;
  const out = await det.run({ [det.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, h, w]) });
  const map = out[det.outputNames[0]!]!.data as Float32Array;
  const sx = picture.width / w;
  const sy = picture.height / h;
  return regions(map, w, h).map((r) => {
    const grow = (r.len * r.thick * UNCLIP_RATIO) / (2 * (r.len + r.thick));
    const c = Math.abs(Math.cos(r.angle));
    const s = Math.abs(Math.sin(r.angle));
    // Scales differ by at most a pixel between x and y: the one along the line's direction is good enough.
    const along = Math.hypot(sx * c, sy * s);
    const across = Math.hypot(sx * s, sy * c);
    return {
      cx: r.cx * sx,
      cy: r.cy * sy,
      len: (r.len + 2 * grow) * along,
      thick: (r.thick + 2 * grow) * across,
      angle: r.angle,
    };
  });
}

/** Connected regions of the probability map, each as an oriented rectangle (principal axes of its pixels). */
function regions(map: Float32Array, w: number, h: number): LineBox[] {
  const seen = new Uint8Array(w * h);
  const found: LineBox[] = [];
  const stack: number[] = [];
  const pixels: number[] = [];
  for (let i = 0; i < w * h; i++) {
    if (seen[i] || map[i]! < PIXEL_THRESHOLD) continue;
    pixels.length = 0;
    let sum = 0;
    let sumX = 0;
    let sumY = 0;
    stack.push(i);
    seen[i] = 1;
    while (stack.length) {
      const j = stack.pop()!;
      const x = j % w;
      const y = (j - x) / w;
      pixels.push(j);
      sum += map[j]!;
      sumX += x;
      sumY += y;
      for (const k of [x > 0 ? j - 1 : -1, x < w - 1 ? j + 1 : -1, y > 0 ? j - w : -1, y < h - 1 ? j + w : -1])
        if (k >= 0 && !seen[k] && map[k]! >= PIXEL_THRESHOLD) {
          seen[k] = 1;
          stack.push(k);
        }
    }
    const n = pixels.length;
    if (n < 6 || sum / n < BOX_THRESHOLD) continue;
    const mx = sumX / n;
    const my = sumY / n;
    let xx = 0;
    let yy = 0;
    let xy = 0;
    for (const j of pixels) {
      const x = (j % w) - mx;
      const y = Math.floor(j / w) - my;
      xx += x * x;
      yy += y * y;
      xy += x * y;
    }
    const angle = 0.5 * Math.atan2(2 * xy, xx - yy);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    let u0 = Infinity;
    let u1 = -Infinity;
    let v0 = Infinity;
    let v1 = -Infinity;
    for (const j of pixels) {
      const x = (j % w) - mx;
      const y = Math.floor(j / w) - my;
      const u = x * cos + y * sin;
      const v = -x * sin + y * cos;
      u0 = Math.min(u0, u);
      u1 = Math.max(u1, u);
      v0 = Math.min(v0, v);
      v1 = Math.max(v1, v);
    }
    const uc = (u0 + u1) / 2;
    const vc = (v0 + v1) / 2;
    found.push({
      cx: mx + 0.5 + uc * cos - vc * sin,
      cy: my + 0.5 + uc * sin + vc * cos,
      len: u1 - u0 + 1,
      thick: v1 - v0 + 1,
      angle,
    });
  }
  return found;
}

/** One line read, turned level first (and upside down when `flip`). */
export async function readLine(models: Models, picture: Bitmap, box: LineBox, flip = false): Promise<ReadLine> {
  const none = { text: '', confidence: 0, box };
  const crop = await levelledCrop(picture, box, flip);
  if (!crop) return none;
  const W = Math.min(MAX_REC_WIDTH, Math.max(16, Math.round((crop.width * REC_HEIGHT) / crop.height)));
  const H = REC_HEIGHT;
  const px = await sharp(crop.data, rawOf(crop)).resize(W, H, { fit: 'fill' }).raw().toBuffer();
  const input = new Float32Array(3 * W * H);
  for (let i = 0; i < W * H; i++) for (let c = 0; c < 3; c++) input[c * W * H + i] = (px[i * 3 + c]! / 255 - 0.5) / 0.5;
  const { rec, charset } = models;
  const out = (await rec.run({ [rec.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, H, W]) }))[
    rec.outputNames[0]!
  ]!;
  return { ...ctcDecode(out.data as Float32Array, out.dims[1]!, out.dims[2]!, charset), box };
}

/** Greedy CTC: the best class per step, repeats and blanks dropped. */
function ctcDecode(probs: Float32Array, steps: number, classes: number, charset: string[]) {
  let text = '';
  let last = 0;
  let sum = 0;
  let n = 0;
  for (let t = 0; t < steps; t++) {
    let best = 0;
    let p = -1;
    for (let c = 0; c < classes; c++)
      if (probs[t * classes + c]! > p) {
        p = probs[t * classes + c]!;
        best = c;
      }
    if (best !== 0 && best !== last) {
      text += charset[best] ?? '';
      sum += p;
      n++;
    }
    last = best;
  }
  return { text, confidence: n ? sum / n : 0 };
}

/** The line's rectangle cut out and turned so that its writing runs left to right: RGB, 3 channels. */
async function levelledCrop(picture: Bitmap, box: LineBox, flip: boolean): Promise<Bitmap | null> {
  const cos = Math.abs(Math.cos(box.angle));
  const sin = Math.abs(Math.sin(box.angle));
  const left = Math.max(0, Math.floor(box.cx - (box.len * cos + box.thick * sin) / 2));
  const top = Math.max(0, Math.floor(box.cy - (box.len * sin + box.thick * cos) / 2));
  const width = Math.min(picture.width - left, Math.ceil(box.len * cos + box.thick * sin) + 1);
  const height = Math.min(picture.height - top, Math.ceil(box.len * sin + box.thick * cos) + 1);
  if (width < 4 || height < 4 || box.thick < 3) return null;
  const cut = await sharp(picture.data, rawOf(picture))
    .extract({ left, top, width, height })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const degrees = (box.angle * 180) / Math.PI;
  const turn = (Math.abs(degrees) > 2 ? -degrees : 0) + (flip ? 180 : 0);
  if (!turn) return { data: cut.data, width, height, channels: 3 };
  const turned = await sharp(cut.data, { raw: { width, height, channels: 3 } })
    .rotate(turn, { background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  // The line's centre, relative to the cut's centre, turned with the picture (sharp turns clockwise).
  const dx = box.cx - (left + width / 2);
  const dy = box.cy - (top + height / 2);
  const a = (turn * Math.PI) / 180;
  const cx = turned.info.width / 2 + dx * Math.cos(a) - dy * Math.sin(a);
  const cy = turned.info.height / 2 + dx * Math.sin(a) + dy * Math.cos(a);
  const l = Math.max(0, Math.round(cx - box.len / 2));
  const t = Math.max(0, Math.round(cy - box.thick / 2));
  const w = Math.min(turned.info.width - l, Math.round(box.len));
  const h = Math.min(turned.info.height - t, Math.round(box.thick));
  if (w < 4 || h < 4) return null;
  const line = await sharp(turned.data, { raw: { width: turned.info.width, height: turned.info.height, channels: 3 } })
    .extract({ left: l, top: t, width: w, height: h })
    .raw()
    .toBuffer();
  return { data: line, width: w, height: h, channels: 3 };
}
