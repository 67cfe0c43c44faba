import type { ButtonHTMLAttributes } from 'react';
import './Switch.css';

/** An on/off switch (`role="switch"`): a track and a thumb before its label. */
export function Switch({
  on,
  label,
  ...rest
}: { on: boolean; label: string } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'role' | 'className' | 'children'>) {
  return (
    <button type="button" {...rest} role="switch" aria-checked={on} className="switch">
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      <span>{label}</span>
    </button>
  );
}
