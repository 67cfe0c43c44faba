import { useEffect, useLayoutEffect } from 'react';
import type { DependencyList, RefObject } from 'react';

/** `useLayoutEffect` in the browser, `useEffect` on the server (where layout effects only warn). */
export const useIsoLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/**
 * Calls `measure` with the element at once (before the browser paints) and again whenever its size
 * changes, through a ResizeObserver. `deps` re-attach it (an element that is rendered only sometimes).
 */
export function useElementSize<E extends Element>(
  ref: RefObject<E>,
  measure: (el: E) => void,
  deps: DependencyList = [],
): void {
  useIsoLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onResize = () => measure(el);
    onResize();
    const observer = new ResizeObserver(onResize);
    observer.observe(el);
    return () => observer.disconnect();
    // `measure` is read when the size changes; the caller names what re-attaches it.
  }, deps);
}
