import { useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';

/**
 * Copies `text` to the clipboard; where the browser refuses (no permission, http on another host) it
 * selects the text in `field` and asks for a copy the old way, so Ctrl+C still works.
 * `copied` is true for a moment after.
 */
export function useCopy(field: RefObject<HTMLInputElement>, text: string): { copied: boolean; copy(): Promise<void> } {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      field.current?.select();
      document.execCommand?.('copy');
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), 2500);
  };
  return { copied, copy };
}
