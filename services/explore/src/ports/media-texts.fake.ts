import type { MediaItemTexts, MediaTexts } from './media-texts';

type Editable = Omit<MediaItemTexts, 'version'>;

/** An in-memory media service for search: items by id with their owner, texts and flags; each change moves the version on. */
export class FakeMediaTexts implements MediaTexts {
  private readonly items = new Map<string, { userId: string; texts: MediaItemTexts }>();
  private clock = Date.parse('2024-01-01T00:00:00Z');

  add(userId: string, id: string, texts: Partial<Editable> = {}): void {
    this.items.set(id, { userId, texts: { filename: 'IMG_0001.JPG', description: null, hidden: false, trashed: false, ...texts, version: this.tick() } });
  }

  set(id: string, texts: Partial<Editable>): void {
    const item = this.items.get(id);
    if (!item) throw new Error(`no item ${id}`);
    item.texts = { ...item.texts, ...texts, version: this.tick() };
  }

  purge(id: string): void {
    this.items.delete(id);
  }

  async textsOf(userId: string, mediaItemId: string): Promise<MediaItemTexts | null> {
    const item = this.items.get(mediaItemId);
    return item && item.userId === userId ? { ...item.texts } : null;
  }

  private tick(): Date {
    this.clock += 1000;
    return new Date(this.clock);
  }
}
