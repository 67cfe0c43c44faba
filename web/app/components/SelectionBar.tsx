import type { BulkIntent } from '~/lib/item-effects';
import { Button, IconButton } from './ui/Button';
import { Icon } from './ui/Icon';
import type { IconName } from './ui/Icon';
import './SelectionBar.css';

export type BulkAction = BulkIntent | 'addToAlbum' | 'setCover' | 'download';

const BULK: Record<BulkAction, { label: string; icon: IconName }> = {
  favourite: { label: 'Favourite', icon: 'heart' },
  unfavourite: { label: 'Remove from favourites', icon: 'heartOutline' },
  addToAlbum: { label: 'Add to album', icon: 'album' },
  setCover: { label: 'Set as album cover', icon: 'cover' },
  download: { label: 'Download', icon: 'download' },
  hide: { label: 'Hide', icon: 'hidden' },
  unhide: { label: 'Unhide', icon: 'hidden' },
  removeFromAlbum: { label: 'Remove from album', icon: 'remove' },
  trash: { label: 'Move to trash', icon: 'trash' },
  restore: { label: 'Restore', icon: 'restore' },
  purge: { label: 'Delete for good', icon: 'trash' },
};

export interface SelectionBarProps {
  count: number;
  actions: BulkAction[];
  /** An action is running: the buttons wait. */
  busy: boolean;
  onAction(action: BulkAction): void;
  onClear(): void;
}

/** Stays at the top while items are selected: how many, and what can be done with them. */
export function SelectionBar({ count, actions, busy, onAction, onClear }: SelectionBarProps) {
  return (
    <div className="selection-bar" role="toolbar" aria-label="Selected items">
      <IconButton icon="close" label="Clear selection" title="Clear selection (Esc)" onClick={onClear} />
      <span className="selection-count" aria-live="polite">
        {count.toLocaleString('en-GB')} selected
      </span>
      <div className="selection-actions">
        {actions.map((a) => (
          <Button key={a} disabled={busy} onClick={() => onAction(a)} aria-label={BULK[a].label} title={BULK[a].label}>
            <Icon name={BULK[a].icon} size={20} />
            <span className="hide-small">{BULK[a].label}</span>
          </Button>
        ))}
      </div>
    </div>
  );
}
