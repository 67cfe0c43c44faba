// libheif-js ships no types for its bundle; this is the part of its API the previews use (libheif's C
// API through emscripten, plus the bundle's HeifImage wrapper of an image handle).
declare module 'libheif-js/wasm-bundle' {
  namespace libheif {
    /** An opaque libheif object (context, image handle). */
    type Pointer = object;
    interface HeifError {
      code: unknown;
      message: string;
    }
    class HeifImage {
      constructor(handle: Pointer);
      get_width(): number;
      get_height(): number;
      is_primary(): boolean;
      /** Decodes to interleaved RGBA into `target.data`, transforms (irot/imir, grids) applied; `done(null)` on failure. */
      display(
        target: { data: Uint8ClampedArray; width: number; height: number },
        done: (result: { data: Uint8ClampedArray } | null) => void,
      ): void;
      free(): void;
    }
  }
  interface LibHeif {
    ready?: Promise<unknown>;
    heif_error_code: { heif_error_Ok: unknown };
    heif_context_alloc(): libheif.Pointer | null;
    heif_context_free(context: libheif.Pointer): void;
    heif_context_read_from_memory(context: libheif.Pointer, data: Uint8Array): libheif.HeifError;
    /** An array of item ids, or an object with an error `code`. */
    heif_js_context_get_list_of_top_level_image_IDs(context: libheif.Pointer): number[] | { code: unknown };
    heif_js_context_get_image_handle(context: libheif.Pointer, id: number): libheif.Pointer | { code: unknown } | null;
    HeifImage: typeof libheif.HeifImage;
  }
  const module: LibHeif;
  export = module;
}
