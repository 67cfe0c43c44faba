/**
 * The paths an embedded store (a NeDB directory, an SQLite file) has open in this process: two owners of one
 * path would each write blindly and undo each other's work, so a second open is refused.
 */
export class OpenPaths {
  private readonly open = new Set<string>();

  /** Claims `path` for what `open` opens there; the claim is given back if opening fails. */
  async claim<T>(path: string, open: () => Promise<T>): Promise<T> {
    if (this.open.has(path)) throw new Error(`a docstore is already open on ${path} in this process`);
    this.open.add(path);
    try {
      return await open();
    } catch (err) {
      this.open.delete(path);
      throw err;
    }
  }

  /** Gives `path` back once its store is closed. */
  release(path: string): void {
    this.open.delete(path);
  }
}
