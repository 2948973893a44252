import { useEffect, useRef, type MutableRef } from 'preact/hooks';

/** A ref that is true while the component is mounted: async work checks it before setting state. */
export function useMounted(): MutableRef<boolean> {
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}

/**
 * A flag to set before a change: the next time `when` is truthy after a render with the flag set,
 * `target` takes focus (once) and the flag clears.
 */
export function useFocusOnNext(when: unknown, target: { readonly current: HTMLElement | null }): MutableRef<boolean> {
  const requested = useRef(false);
  useEffect(() => {
    if (when && requested.current) {
      requested.current = false;
      target.current?.focus();
    }
  }, [when]);
  return requested;
}
