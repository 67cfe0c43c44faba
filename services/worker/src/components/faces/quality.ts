/**
 * How usable a face is for recognition, 0..1: explore lets only faces at or above its minimum
 * quality start a person, so that small or blurred faces join people but never found them.
 *
 *   size      = clamp((eyes − 6) / 24)            eyes: pixels between the eye centres in the picture
 *   sharpness = clamp((log10(laplacian) − 1) / 1.5)  laplacian: variance of the Laplacian of the aligned crop
 *   quality   = √(size × sharpness), two decimals
 *
 * Calibration (FaceRes crop 224 px): at 30 px between the eyes a face has about the resolution the
 * embedding model was trained at (size 1), at 18 px half of it (0.5), at 6 px nothing of use. The
 * aligned crops of sharp portraits measure a Laplacian variance of 100–1,000 (sharpness 0.67–1),
 * soft or upscaled ones 20–50, a face blurred beyond recognition under 10 (0). A face needs both:
 * the geometric mean is ≥ 0.5 for any face with ≥ 18 px between the eyes and a variance ≥ 32.
 */
import type { Landmarks } from './geometry';

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

export function sizeScore(landmarks: Landmarks): number {
  const eyes = Math.hypot(landmarks.leftEye.x - landmarks.rightEye.x, landmarks.leftEye.y - landmarks.rightEye.y);
  return clamp01((eyes - 6) / 24);
}

export function sharpnessScore(laplacianVariance: number): number {
  return laplacianVariance <= 0 ? 0 : clamp01((Math.log10(laplacianVariance) - 1) / 1.5);
}

export function faceQuality(landmarks: Landmarks, laplacianVariance: number): number {
  return Math.round(Math.sqrt(sizeScore(landmarks) * sharpnessScore(laplacianVariance)) * 100) / 100;
}
