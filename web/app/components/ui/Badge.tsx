import { Icon } from './Icon';
import './Badge.css';

const BADGES = {
  video: { icon: 'play', size: 16 },
  favourite: { icon: 'heart', size: 16 },
  shared: { icon: 'share', size: 14 },
} as const;

/**
 * A small icon over a picture's corner (video, favourite, shared album). Decorative unless given a
 * `label`: the tile's alt text already says what it is.
 */
export function Badge({ kind, label, title }: { kind: keyof typeof BADGES; label?: string; title?: string }) {
  const { icon, size } = BADGES[kind];
  return (
    <span className={`badge badge-${kind}`} aria-hidden={label ? undefined : 'true'} title={title}>
      <Icon name={icon} size={size} />
      {label ? <span className="visually-hidden">{label}</span> : null}
    </span>
  );
}
