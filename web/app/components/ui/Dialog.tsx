import { useEffect, useRef } from 'react';
import type { DialogHTMLAttributes } from 'react';

export interface DialogProps extends Omit<DialogHTMLAttributes<HTMLDialogElement>, 'open' | 'onCancel' | 'onClose'> {
  /** Esc, the dialog's own close, or (with `closeOnBackdrop`) a click beside it: called once. */
  onClose(): void;
  /** A click on the backdrop closes it (modals; the full-screen viewer has no backdrop to click). */
  closeOnBackdrop?: boolean;
}

/**
 * A modal dialog on the native <dialog>, opened when it mounts: the browser keeps focus inside,
 * makes the page behind inert, closes on Esc and returns focus where it was. The parent unmounts it
 * in `onClose`.
 */
export function Dialog({ onClose, closeOnBackdrop = false, children, ...attributes }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // Esc may come as a cancel the browser will not let us refuse (then the dialog closes itself): close once either way.
  const closed = useRef(false);
  const close = () => {
    if (closed.current) return;
    closed.current = true;
    onClose();
  };

  useEffect(() => {
    const d = ref.current;
    if (!d || d.open) return;
    // jsdom has no showModal: the open attribute shows it there.
    if (typeof d.showModal === 'function') d.showModal();
    else d.setAttribute('open', '');
  }, []);

  return (
    <dialog
      ref={ref}
      {...attributes}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onClose={close}
      onClick={
        closeOnBackdrop
          ? (e) => {
              // The dialog itself, outside its content, is the backdrop.
              if (e.target === ref.current) close();
            }
          : undefined
      }
    >
      {children}
    </dialog>
  );
}
