/** The operator's prices: each offer's price and scheduled changes, defaults, market references, and the forms. */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { formatDateTime, formatMoney } from '../../../format';
import { listGpuModels, type GpuModel, type Money } from '../../../offers';
import { listSites, type Site } from '../../../operator-hosts';
import type { Me } from '../../../session';
import { PriceForm } from './PriceForm';
import { getSettings, listPrices, type OperatorSettings, type PriceRow, type PriceTarget } from './prices-api';
import { PriceSuggestionsSlot } from './PriceSuggestionsSlot';
import { SettingsForm } from './SettingsForm';
import './prices.css';

const money = (m: Money) => formatMoney(m.amount, m.currency);

function Scheduled({ rows }: { rows: PriceRow[] }) {
  if (rows.length === 0) {
    return <span class="muted">none</span>;
  }
  return (
    <ul class="scheduled">
      {rows.map((row) => (
        <li key={row.effective_from}>
          {money(row.price)} from <time dateTime={row.effective_from}>{formatDateTime(row.effective_from)}</time>{' '}
          <span class="muted">(by {row.set_by})</span>
        </li>
      ))}
    </ul>
  );
}

function OffersTable({ offers }: { offers: PriceTarget[] }) {
  return (
    <div class="table-scroll">
      <table id="offer-prices" class="prices-table">
        <caption>Offers: the price per GPU-hour that applies now (before discounts, fee and tax)</caption>
        <thead>
          <tr><th scope="col">Offer</th><th scope="col">Price now</th><th scope="col">Own price set</th><th scope="col">Scheduled</th></tr>
        </thead>
        <tbody>
          {offers.map((offer) => (
            <tr key={offer.offer_id} data-offer={offer.offer_id}>
              <th scope="row">
                {offer.host_name}
                <span class="host-id">{offer.gpu_model} · {offer.site_name} · {offer.offer_id}</span>
              </th>
              <td class="price-now">
                {offer.applies ? money(offer.applies.price) : <span class="muted">no price</span>}
                {offer.applies?.source === 'default' && <span class="muted"> (site default)</span>}
                <PriceSuggestionsSlot offerId={offer.offer_id ?? ''} gpuModel={offer.gpu_model} siteId={offer.site_id} />
              </td>
              <td>
                {offer.current
                  ? <>{formatDateTime(offer.current.set_at)} <span class="muted">by {offer.current.set_by}</span></>
                  : <span class="muted">—</span>}
              </td>
              <td><Scheduled rows={offer.scheduled} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function DefaultsTable({ defaults, sites }: { defaults: PriceTarget[]; sites: Site[] }) {
  if (defaults.length === 0) {
    return <p id="no-defaults" class="muted">No model-and-site defaults yet; offers without their own price need one.</p>;
  }
  const siteName = (id?: string) => sites.find((s) => s.id === id)?.name ?? id;
  return (
    <div class="table-scroll">
      <table id="default-prices" class="prices-table">
        <caption>Defaults per GPU model and site (for offers without a price of their own)</caption>
        <thead>
          <tr><th scope="col">GPU model at site</th><th scope="col">Price now</th><th scope="col">Scheduled</th></tr>
        </thead>
        <tbody>
          {defaults.map((d) => (
            <tr key={`${d.gpu_model}@${d.site_id}`}>
              <th scope="row">{d.gpu_model} at {siteName(d.site_id)}</th>
              <td>{d.current ? <>{money(d.current.price)} <span class="muted">by {d.current.set_by}</span></> : '—'}</td>
              <td><Scheduled rows={d.scheduled} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ReferenceTable({ models }: { models: GpuModel[] }) {
  const ref = (r: GpuModel['reference_prices']['hyperscaler']) =>
    r ? <>{money(r.price)} <span class="muted">{r.source}, {r.as_of}</span></> : <span class="muted">—</span>;
  return (
    <div class="table-scroll">
      <table id="reference-prices" class="prices-table">
        <caption>Market reference prices per GPU-hour (on-demand, for comparison)</caption>
        <thead>
          <tr><th scope="col">GPU model</th><th scope="col">Hyperscaler</th><th scope="col">Specialized clouds</th></tr>
        </thead>
        <tbody>
          {models.map((m) => (
            <tr key={m.name}>
              <th scope="row">{m.name}</th>
              <td>{ref(m.reference_prices.hyperscaler)}</td>
              <td>{ref(m.reference_prices.specialized)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function PricesPage({ me }: { me: Me }) {
  const [targets, setTargets] = useState<PriceTarget[] | null>(null);
  const [settings, setSettings] = useState<OperatorSettings | null>(null);
  const [models, setModels] = useState<GpuModel[]>([]);
  const [sites, setSites] = useState<Site[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const load = useCallback((signal?: AbortSignal) => {
    Promise.all([listPrices(signal), getSettings(signal), listGpuModels(signal), listSites(signal)])
      .then(([prices, terms, gpuModels, siteList]) => {
        setTargets(prices.data);
        setSettings(terms);
        setModels(gpuModels.data);
        setSites(siteList.data);
      })
      .catch((e: unknown) => {
        if (!signal?.aborted) {
          setError(e instanceof Error ? e.message : String(e));
        }
      });
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  if (error) {
    return <p id="prices-error" class="problem" role="alert">{error}</p>;
  }
  if (targets === null || settings === null) {
    return <p class="muted" role="status">Loading prices…</p>;
  }
  const offers = targets.filter((t) => t.kind === 'offer');
  return (
    <section aria-labelledby="prices-heading" class="prices-page">
      <h2 id="prices-heading">Prices</h2>
      {notice && <p id="prices-notice" role="status">{notice}</p>}
      <OffersTable offers={offers} />
      <div class="prices-forms">
        <PriceForm me={me} currency={settings.currency} offers={offers} models={models} sites={sites}
          onSaved={(message) => { setNotice(message); load(); }} />
        <SettingsForm me={me} settings={settings} onSaved={(next) => setSettings(next)} />
      </div>
      <DefaultsTable defaults={targets.filter((t) => t.kind === 'default')} sites={sites} />
      <ReferenceTable models={models} />
    </section>
  );
}
