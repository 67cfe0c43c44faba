import type { MouseEvent } from 'react';
import { Icon } from './Icon';
import './CheckToggle.css';

/** A round check that selects something (a tile, a day); pressed, it fills with the accent colour. */
export function CheckToggle({
  className,
  pressed,
  label,
  iconSize,
  onClick,
}: {
  className: string;
  pressed: boolean;
  label: string;
  iconSize: number;
  onClick(e: MouseEvent<HTMLButtonElement>): void;
}) {
  return (
    <button
      type="button"
      className={`check-toggle ${className}`}
      aria-pressed={pressed}
      aria-label={label}
      onClick={onClick}
    >
      <Icon name="check" size={iconSize} />
    </button>
  );
}
