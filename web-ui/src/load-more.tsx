/** The "Load more" button under a paginated list, with its busy state and error. */
import './load-more.css';

export function LoadMore({ id, loading, error, onLoad }: {
  id: string;
  loading: boolean;
  error: string | null;
  onLoad: () => void;
}) {
  return (
    <div class="load-more">
      <button
        id={id}
        type="button"
        class="btn"
        aria-disabled={loading ? 'true' : undefined}
        aria-busy={loading ? 'true' : undefined}
        onClick={onLoad}
      >
        {loading ? 'Loading…' : 'Load more'}
      </button>
      {error && (
        <p id={`${id}-error`} class="alert alert--error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
