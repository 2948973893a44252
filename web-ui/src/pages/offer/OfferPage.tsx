import { useEffect, useMemo } from 'preact/hooks';
import { catalogHref } from '../../catalog-filters';
import { SITE_NAME } from '../../routes';
import { Link, useSearch } from '../../router';
import { windowFromSearch } from './chosen-window';
import { OfferDetails } from './OfferDetails';
import { useOffer } from './useOffer';
import { workloadFromSearch } from '../../workloads';
import './offer.css';

/** `/catalog/{id}`: the offer, its price for the chosen window, a quote and the reservation. */
export function OfferPage({ id }: { id: string }) {
  const search = useSearch();
  const chosen = useMemo(() => windowFromSearch(search), [search]);
  const workload = useMemo(() => workloadFromSearch(search), [search]);
  const { offer, loading, error, reload } = useOffer(id, chosen, workload);

  useEffect(() => {
    if (offer) {
      document.title = `${offer.gpu_model} in ${offer.site} — ${SITE_NAME}`;
    } else if (error?.status === 404) {
      document.title = `Offer not found — ${SITE_NAME}`;
    }
  }, [offer, error]);

  const notFound = error?.status === 404;
  const heading = offer && offer.id === id ? `${offer.gpu_model} in ${offer.site}` : notFound ? 'Offer not found' : 'Offer';

  return (
    <>
      <p class="breadcrumb">
        <Link id="back-to-catalog" href={catalogHref()}>
          ← Back to the catalog
        </Link>
      </p>
      <h1>{heading}</h1>
      {notFound ? (
        <div id="offer-not-found" class="empty-state">
          <p>There is no offer {id ? <code>{id}</code> : null}. It may have been withdrawn.</p>
          <p>
            <Link href="/catalog">Browse the catalog</Link> for current offers.
          </p>
        </div>
      ) : error && !offer ? (
        <div id="offer-error" class="alert alert--error" role="alert">
          <p>Could not load this offer: {error.message}</p>
          <button type="button" class="btn" onClick={reload}>
            Try again
          </button>
          {(chosen.start || chosen.hours !== null) && (
            <p>
              <Link href={`/catalog/${encodeURIComponent(id)}`}>Show this offer from now instead</Link>
            </p>
          )}
        </div>
      ) : !offer ? (
        <p class="muted" role="status">
          Loading the offer…
        </p>
      ) : (
        <>
          {offer.fit && (
            <section id="offer-fit" class={offer.fit.fits ? 'notice offer-fit' : 'note offer-fit'} aria-labelledby="offer-fit-heading">
              <h2 id="offer-fit-heading">{offer.fit.fits ? 'Your workload fits' : 'Your workload does not fit this offer'}</h2>
              <p id="offer-fit-sentence">{offer.fit.sentence}</p>
              {offer.fit.fits && offer.fit.gpu_count !== null && chosen.gpus !== null && chosen.gpus < offer.fit.gpu_count && (
                <p>Fewer than {offer.fit.gpu_count} GPUs will not hold it.</p>
              )}
            </section>
          )}
        <OfferDetails
          offer={offer}
          updating={loading}
          updateError={error ? error.message : null}
          onRetry={reload}
          chosen={chosen}
        />
        </>
      )}
    </>
  );
}
