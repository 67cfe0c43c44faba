// heic-decode ships no types; this is the part of its API the previews use.
declare module 'heic-decode' {
  namespace decode {
    interface DecodedImage {
      width: number;
      height: number;
      /** RGBA, 4 bytes per pixel, row by row. */
      data: Uint8ClampedArray;
    }
    /** An image of the file: its size is read, its pixels are decoded on request. */
    interface HeifImage {
      width: number;
      height: number;
      decode(): Promise<DecodedImage>;
    }
    interface Input {
      buffer: ArrayBufferLike | Uint8Array;
    }
    /** Every image of the file, undecoded; `dispose` frees the decoder once done with them. */
    function all(input: Input): Promise<HeifImage[] & { dispose(): void }>;
  }
  /** Decodes the file's first image. */
  function decode(input: decode.Input): Promise<decode.DecodedImage>;
  export = decode;
}
