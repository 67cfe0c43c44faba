/**
 * How usable a face is for recognition, 0..1: explore lets only faces at or above its minimum
 * quality start a person, so that small or blurred faces join people but never found them.
 *
 *   size      = clamp((eyes − 4) / 16)            eyes: pixels between the eye centres in the picture
 *   sharpness = clamp(log10(laplacian) − 1)       laplacian: variance of the Laplacian of the aligned crop at the face's resolution
 *   quality   = √(size × sharpness), two decimals
 *
 * The Laplacian is measured on the aligned crop brought back to the face's own resolution
 * (`nativeSide`): enlarging a small face to the model's 224 px blurs it, and would make every small
 * face look out of focus however sharp the photo.
 *
 * Calibration: a face recognised reliably in the tests' group photo has ~20 px between the eyes
 * (size 1), 12 px gives half (0.5), 4 px nothing of use. Sharp faces measure a Laplacian variance
 * of 100–2,000 (sharpness 1), soft ones 30–100, a face blurred beyond recognition under 10 (0). A
 * face needs both: the geometric mean is ≥ 0.5 for 12+ px between the eyes and a sharp crop, or
 * 20+ px and a variance ≥ 18.
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

/**
 * The side, in pixels, the aligned `cropSize` crop has at the face's own resolution: the crop's
 * eye distance (`cropEyes`, from the template) against the picture's.
 */
export function nativeSide(landmarks: Landmarks, cropSize: number, cropEyes: number): number {
  const eyes = Math.hypot(landmarks.leftEye.x - landmarks.rightEye.x, landmarks.leftEye.y - landmarks.rightEye.y);
  return Math.max(8, Math.min(cropSize, Math.round((cropSize * eyes) / cropEyes)));
}
