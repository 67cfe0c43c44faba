import type { ReactNode } from 'react';
import './FormError.css';

/** What went wrong with a form or a load, announced as an alert; nothing when there is nothing to say. */
export function FormError({ id, className, children }: { id?: string; className?: string; children: ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} className={className ? `form-error ${className}` : 'form-error'} role="alert">
      {children}
    </p>
  );
}
