import { Link } from '@remix-run/react';
import { createContext, useCallback, useContext, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import './Toasts.css';

export interface Toast {
  id: number;
  message: string;
  tone: 'info' | 'error';
  link?: { to: string; label: string };
  /** A button that undoes what the toast reports (it closes the toast). */
  action?: { label: string; run(): void };
}

type Notify = (
  message: string,
  opts?: { tone?: Toast['tone']; link?: Toast['link']; action?: Toast['action'] },
) => void;

const ToastContext = createContext<Notify>(() => undefined);

export function useToast(): Notify {
  return useContext(ToastContext);
}

/** Short messages after actions ("Moved 2 items to the trash"), announced politely to screen readers. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const seq = useRef(0);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const notify = useCallback<Notify>(
    (message, opts) => {
      const id = ++seq.current;
      setToasts((t) => [
        ...t.slice(-2),
        { id, message, tone: opts?.tone ?? 'info', link: opts?.link, action: opts?.action },
      ]);
      setTimeout(() => dismiss(id), opts?.tone === 'error' || opts?.action ? 8000 : 5000);
    },
    [dismiss],
  );
  const value = useMemo(() => notify, [notify]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast ${t.tone}`}>
            <span>{t.message}</span>
            {t.link ? (
              <Link to={t.link.to} className="toast-link">
                {t.link.label}
              </Link>
            ) : null}
            {t.action ? (
              <button
                type="button"
                className="toast-link"
                onClick={() => {
                  dismiss(t.id);
                  t.action?.run();
                }}
              >
                {t.action.label}
              </button>
            ) : null}
            <button type="button" className="toast-close" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
