import type { ButtonHTMLAttributes } from 'react';
import { Icon } from './Icon';
import type { IconName } from './Icon';
import './Button.css';

export interface ButtonLook {
  variant?: 'primary' | 'danger';
  size?: 'small';
  /** As wide as its container. */
  wide?: boolean;
}

/** The class of a button, for links that look like one (`<Link className={buttonClass(…)}>`). */
export function buttonClass({ variant, size, wide }: ButtonLook = {}): string {
  return ['button', variant, size, wide ? 'wide' : undefined].filter(Boolean).join(' ');
}

type ButtonProps = ButtonLook & ButtonHTMLAttributes<HTMLButtonElement>;

/** A labelled button (`type="button"` unless told otherwise). */
export function Button({ variant, size, wide, className, type = 'button', ...rest }: ButtonProps) {
  const look = buttonClass({ variant, size, wide });
  return <button type={type} className={className ? `${look} ${className}` : look} {...rest} />;
}

type IconButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children' | 'aria-label'> & {
  icon: IconName;
  /** What the button does: its accessible name (the icon says nothing to screen readers). */
  label: string;
  /** Its keyboard shortcut (aria-keyshortcuts), which the tooltip then names: "<title, else label> (<shortcut>)". */
  shortcut?: string;
  iconSize?: number;
  iconClassName?: string;
  size?: 'small';
};

/** A round button showing only an icon; `label` is its name. */
export function IconButton({
  icon,
  label,
  shortcut,
  iconSize,
  iconClassName,
  size,
  className,
  type = 'button',
  ...rest
}: IconButtonProps) {
  const look = ['icon-button', size, className].filter(Boolean).join(' ');
  const keys = shortcut ? { 'aria-keyshortcuts': shortcut, title: `${rest.title ?? label} (${shortcut})` } : {};
  return (
    <button type={type} className={look} aria-label={label} {...rest} {...keys}>
      <Icon name={icon} size={iconSize} className={iconClassName} />
    </button>
  );
}

/** A button that reads as a link inside text ("Try again", "Cancel"). */
export function TextButton({ type = 'button', ...rest }: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className'>) {
  return <button type={type} className="link-button" {...rest} />;
}
