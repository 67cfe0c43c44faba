/**
 * How usable a face is for recognition, 0..1: explore lets only faces at or above its minimum
 * quality start a person, so that small or blurred faces join people but never found them.
 *
 *   size      = clamp((eyes − 4) / 16)            eyes: pixels between the eye centres in the picture
 *   sharpness = clamp(log10(laplacian) − 1)       laplacian: variance of the Laplacian of the aligned crop
 *   quality   = √(size × sharpness), two decimals
 *
 * Calibration (FaceRes's aligned 224 px crop): a face recognised reliably in the tests' group photo
 * has ~20 px between the eyes (size 1), 12 px gives half (0.5), 4 px nothing of use. The aligned
 * crops of sharp portraits measure a Laplacian variance of 100–2,000 (sharpness 1), soft or
 * upscaled ones 30–100, a face blurred beyond recognition under 10 (0). A face needs both: the
 * geometric mean is ≥ 0.5 for 12+ px between the eyes and a sharp crop, or 20+ px and a variance ≥ 18.
 */
import type { Landmarks } from './geometry';

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

export function sizeScore(landmarks: Landmarks): number {
  const eyes = Math.hypot(landmarks.leftEye.x - landmarks.rightEye.x, landmarks.leftEye.y - landmarks.rightEye.y);
  return clamp01((eyes - 4) / 16);
}

export function sharpnessScore(laplacianVariance: number): number {
  return laplacianVariance <= 0 ? 0 : clamp01(Math.log10(laplacianVariance) - 1);
}

export function faceQuality(landmarks: Landmarks, laplacianVariance: number): number {
  return Math.round(Math.sqrt(sizeScore(landmarks) * sharpnessScore(laplacianVariance)) * 100) / 100;
}
