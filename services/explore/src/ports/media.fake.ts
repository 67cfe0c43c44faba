import type { MediaItemState, MediaStates } from './media';

/** An in-memory media service: items by id with their owner and state; each change moves the version on. */
export class FakeMedia implements MediaStates {
  private readonly items = new Map<string, { userId: string; state: MediaItemState }>();
  private clock = Date.parse('2024-01-01T00:00:00Z');
  calls = 0;

  add(userId: string, id: string, state: Partial<Omit<MediaItemState, 'version'>> = {}): void {
    this.items.set(id, {
      userId,
      state: {
        filename: 'IMG_0001.JPG',
        description: null,
        hidden: false,
        trashed: false,
        ...state,
        version: this.tick(),
      },
    });
  }

  set(id: string, state: Partial<Omit<MediaItemState, 'version'>>): void {
    const item = this.items.get(id);
    if (!item) throw new Error(`no item ${id}`);
    item.state = { ...item.state, ...state, version: this.tick() };
  }

  purge(id: string): void {
    this.items.delete(id);
  }

  async stateOf(userId: string, mediaItemId: string): Promise<MediaItemState | null> {
    this.calls += 1;
    const item = this.items.get(mediaItemId);
    return item && item.userId === userId ? { ...item.state } : null;
  }

  private tick(): Date {
    this.clock += 1000;
    return new Date(this.clock);
  }
}
