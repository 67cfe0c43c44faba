/**
 * Why a media file could not be processed. `corrupt` and `unsupported` are properties of the file
 * (retrying will not help, the item should be marked failed); `tool` is an ffmpeg/ffprobe/decoder
 * failure that may be transient.
 */
export type MediaErrorKind = 'corrupt' | 'unsupported' | 'too-large' | 'tool';

/** An error that says which of a few kinds of failure it is, for the caller to decide on; named as its class. */
export class KindedError<Kind extends string> extends Error {
  constructor(
    readonly kind: Kind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class MediaError extends KindedError<MediaErrorKind> {}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
