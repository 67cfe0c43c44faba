import { Link } from '@remix-run/react';
import type { Album } from '~/api/types';
import { plural } from '~/lib/format';
import { placeholderDataUrl } from '~/lib/thumbhash';
import { Badge } from './ui/Badge';
import { Icon } from './ui/Icon';
import './AlbumCard.css';

/** An album in the albums grid: its cover (over the cover's placeholder), name and size, and whether it is shared. */
export function AlbumCard({ album }: { album: Album }) {
  const cover = album.coverMediaItem;
  const placeholder = placeholderDataUrl(cover?.placeholder);
  return (
    <li className="album-card">
      <Link to={`/albums/${album.id}`} className="album-link" prefetch="intent">
        <span className="album-cover" style={{ backgroundImage: placeholder ? `url(${placeholder})` : undefined }}>
          {cover ? (
            <img src={cover.thumbnailUrl} alt="" loading="lazy" decoding="async" />
          ) : (
            <Icon name="album" size={40} />
          )}
          {album.shared ? <Badge kind="shared" label="Shared" title="Shared by link" /> : null}
        </span>
        <span className="album-name">{album.name}</span>
        <span className="album-count muted">{plural(album.mediaItemsCount, 'item')}</span>
        {album.role !== 'owner' ? (
          <span className="album-owner muted" data-testid="album-owner">
            {album.owner.name} · <span className={`role-badge role-${album.role}`}>{album.role}</span>
          </span>
        ) : null}
      </Link>
    </li>
  );
}
