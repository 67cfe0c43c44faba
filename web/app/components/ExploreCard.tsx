import { Link } from '@remix-run/react';
import type { CSSProperties, ReactNode } from 'react';
import type { Person, Place, Thing } from '~/api/types';
import { explorePath, faceStyle, placeLabel } from '~/lib/explore';
import { plural } from '~/lib/format';
import { placeholderDataUrl } from '~/lib/thumbhash';
import { Icon } from './ui/Icon';
import type { IconName } from './ui/Icon';
import './ExploreCard.css';

interface CardProps {
  to: string;
  title: string;
  /** Shown muted under the title. */
  note: string;
  /** A square cover image (places, things). */
  image?: string | null;
  /** People are shown round, their face cut out of a thumbnail. */
  round?: boolean;
  face?: CSSProperties | null;
  placeholder?: string | null;
  icon: IconName;
  /** The title is a prompt ("Add a name"), not a name. */
  unnamed?: boolean;
  /** A control over the cover's corner (the check that picks people to merge); outside the link. */
  select?: ReactNode;
}

/** One entry of the explore rows and lists: its cover, its name and how many items it has. */
export function ExploreCard({
  to,
  title,
  note,
  image,
  round = false,
  face,
  placeholder,
  icon,
  unnamed = false,
  select,
}: CardProps) {
  return (
    <li className="explore-card">
      {select}
      <Link to={to} className="explore-link" prefetch="intent">
        <span
          className={`explore-cover${round ? ' round' : ''}`}
          style={face ?? (placeholder ? { backgroundImage: `url(${placeholder})` } : undefined)}
        >
          {image ? (
            <img src={image} alt="" loading="lazy" decoding="async" />
          ) : face ? null : (
            <Icon name={icon} size={36} />
          )}
        </span>
        <span className={`explore-name${unnamed ? ' muted' : ''}`}>{title}</span>
        <span className="explore-count muted">{note}</span>
      </Link>
    </li>
  );
}

export function PlaceCard({ place }: { place: Place }) {
  return (
    <ExploreCard
      to={explorePath('place', place.id)}
      title={placeLabel(place)}
      note={plural(place.mediaItemsCount, 'item')}
      image={place.thumbnailUrl}
      placeholder={placeholderDataUrl(place.coverMediaItem?.placeholder)}
      icon="place"
    />
  );
}

export function ThingCard({ thing }: { thing: Thing }) {
  return (
    <ExploreCard
      to={explorePath('thing', thing.id)}
      title={thing.name}
      note={plural(thing.mediaItemsCount, 'item')}
      image={thing.thumbnailUrl}
      placeholder={placeholderDataUrl(thing.coverMediaItem?.placeholder)}
      icon="thing"
    />
  );
}

export function PersonCard({ person, select }: { person: Person; select?: ReactNode }) {
  const face = person.coverMediaItemFace && 'thumbnail' in person.coverMediaItemFace ? person.coverMediaItemFace : null;
  return (
    <ExploreCard
      to={explorePath('person', person.id)}
      title={person.name || 'Add a name'}
      unnamed={!person.name}
      note={`${plural(person.mediaItemsCount, 'item')}${person.hidden ? ' · hidden' : ''}`}
      round
      face={face ? faceStyle(face.thumbnail, face.boundingBox) : null}
      icon="person"
      select={select}
    />
  );
}
