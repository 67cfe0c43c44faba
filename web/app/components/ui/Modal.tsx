import { useId } from 'react';
import type { ReactNode } from 'react';
import { IconButton } from './Button';
import { Dialog } from './Dialog';
import './Modal.css';

/** A titled dialog over the page, with a close button; a click beside it closes it too. */
export function Modal({
  title,
  onClose,
  children,
  className,
}: {
  title: string;
  onClose(): void;
  children: ReactNode;
  className?: string;
}) {
  const titleId = useId();
  return (
    <Dialog
      className={className ? `modal ${className}` : 'modal'}
      aria-labelledby={titleId}
      onClose={onClose}
      closeOnBackdrop
    >
      <div className="modal-content">
        <div className="modal-head">
          <h2 id={titleId}>{title}</h2>
          <IconButton icon="close" label="Close" onClick={onClose} />
        </div>
        {children}
      </div>
    </Dialog>
  );
}
