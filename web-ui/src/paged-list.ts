/**
 * A list read page by page with a cursor (`?cursor=…`, answered with `next_cursor`): the first
 * page loads whenever the inputs change, "Load more" appends the next one (skipping items
 * already shown), and a status line says what happened for screen readers.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatCount, isAbort } from './offers';

export interface CursorPage<T> {
  data: T[];
  next_cursor: string | null;
}

export interface PagedListOptions<T, P> {
  /** Reads one page: the first one with `cursor` null. */
  fetchPage: (cursor: string | null, signal: AbortSignal) => Promise<CursorPage<T>>;
  /** The list starts again from the first page whenever one of these changes. */
  deps: unknown[];
  /** What the list holds, singular (`payment`); the plural adds an "s" unless `plural` is given. */
  noun: string;
  /** The plural when it is not noun + "s" (`entries`). */
  plural?: string;
  /** The status line when the first page is empty. */
  emptyText: string;
  /** What to show instead of the list when the first page fails. */
  loadProblem: (caught: unknown) => P;
  /** The message under "Load more" when a further page fails. */
  moreProblem: (caught: unknown) => string;
  /** True when an error was dealt with elsewhere (e.g. the session ended): nothing is shown. */
  handled?: (caught: unknown) => boolean;
  /** Called with the items of each page as it arrives. */
  onPage?: (data: T[]) => void;
  /** After the last page the button goes away: focus the item at this index (the first new one). */
  focusItem?: (index: number) => void;
}

export interface PagedList<T, P> {
  /** Null until the first page arrives (and after it failed). */
  items: T[] | null;
  nextCursor: string | null;
  /** True while the first page loads. */
  loading: boolean;
  problem: P | null;
  loadingMore: boolean;
  moreError: string | null;
  /** The status line: loading, how many shown, how many more loaded. */
  summary: string;
  /** Reads the first page again ("Try again"). */
  reload: () => void;
  /** Appends the next page ("Load more"). */
  loadMore: () => Promise<void>;
}

function countOf(count: number, noun: string, plural: string): string {
  return count === 1 ? `1 ${noun}` : `${formatCount(count)} ${plural}`;
}

export function usePagedList<T extends { id: string }, P>(options: PagedListOptions<T, P>): PagedList<T, P> {
  const { fetchPage, noun, handled = () => false } = options;
  const plural = options.plural ?? `${noun}s`;
  const [items, setItems] = useState<T[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [problem, setProblem] = useState<P | null>(null);
  const [moreError, setMoreError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [summary, setSummary] = useState('');
  const [reloadKey, setReloadKey] = useState(0);
  const moreController = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    moreController.current?.abort();
    setLoading(true);
    setLoadingMore(false);
    setMoreError(null);
    setSummary(`Loading ${plural}…`);
    fetchPage(null, controller.signal)
      .then((page) => {
        const data = Array.isArray(page?.data) ? page.data : [];
        setItems(data);
        setNextCursor(page?.next_cursor ?? null);
        setProblem(null);
        options.onPage?.(data);
        setSummary(
          data.length === 0
            ? options.emptyText
            : `${countOf(data.length, noun, plural)}${page?.next_cursor ? ' shown, more available' : ''}.`,
        );
        setLoading(false);
      })
      .catch((caught) => {
        if (isAbort(caught) || handled(caught)) {
          return;
        }
        setItems(null);
        setNextCursor(null);
        setProblem(options.loadProblem(caught));
        setSummary('');
        setLoading(false);
      });
    return () => controller.abort();
  }, [...options.deps, reloadKey]);

  const loadMore = async () => {
    if (!nextCursor || loadingMore) {
      return;
    }
    const controller = new AbortController();
    moreController.current = controller;
    setLoadingMore(true);
    setMoreError(null);
    const firstNew = items?.length ?? 0;
    try {
      const page = await fetchPage(nextCursor, controller.signal);
      const data = Array.isArray(page?.data) ? page.data : [];
      setItems((current) => {
        const seen = new Set((current ?? []).map((item) => item.id));
        return [...(current ?? []), ...data.filter((item) => !seen.has(item.id))];
      });
      setNextCursor(page?.next_cursor ?? null);
      options.onPage?.(data);
      setSummary(`${countOf(data.length, `more ${noun}`, `more ${plural}`)} loaded.`);
      const focusItem = options.focusItem;
      if (!page?.next_cursor && focusItem) {
        window.setTimeout(() => focusItem(firstNew), 0);
      }
    } catch (caught) {
      if (!isAbort(caught) && !handled(caught)) {
        setMoreError(options.moreProblem(caught));
      }
    } finally {
      if (moreController.current === controller) {
        setLoadingMore(false);
      }
    }
  };

  return {
    items,
    nextCursor,
    loading,
    problem,
    loadingMore,
    moreError,
    summary,
    reload: () => setReloadKey((key) => key + 1),
    loadMore,
  };
}
