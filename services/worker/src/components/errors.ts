/**
 * Why a media file could not be processed. `corrupt` and `unsupported` are properties of the file
 * (retrying will not help, the item should be marked failed); `tool` is an ffmpeg/ffprobe/decoder
 * failure that may be transient.
 */
export type MediaErrorKind = 'corrupt' | 'unsupported' | 'too-large' | 'tool';

export class MediaError extends Error {
  constructor(
    readonly kind: MediaErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MediaError';
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
