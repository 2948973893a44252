/** The operator's incidents: open ones first, what each is about, and how its notifications went. */
import { useState } from 'preact/hooks';
import { formatDateTime } from '../../../format';
import { LoadMore } from '../../../load-more';
import { usePagedList } from '../../../paged-list';
import { Link } from '../../../router';
import { hostOf, listIncidents, RULE_LABELS, type Delivery, type Incident, type IncidentStatus } from './incidents';
import './incidents.css';

export function IncidentsPage() {
  const [status, setStatus] = useState<IncidentStatus | ''>('');
  const list = usePagedList<Incident, string>({
    fetchPage: (cursor, signal) => listIncidents(status, cursor, signal),
    deps: [status],
    noun: 'incident',
    emptyText: status === 'open' ? 'No open incidents: all is well.' : 'No incidents.',
    loadProblem: (e) => (e instanceof Error ? e.message : String(e)),
    moreProblem: (e) => (e instanceof Error ? e.message : String(e)),
  });

  return (
    <section aria-labelledby="incidents-heading">
      <h2 id="incidents-heading">Incidents</h2>
      <p class="muted">
        Alert rules open an incident while a condition holds and resolve it when it clears; each change is sent
        once by webhook and e-mail (where configured).
      </p>
      <div class="incidents-filter">
        <label for="incident-status">Show</label>
        <select
          id="incident-status"
          value={status}
          onChange={(e) => setStatus(e.currentTarget.value as IncidentStatus | '')}
        >
          <option value="">All (open first)</option>
          <option value="open">Open</option>
          <option value="resolved">Resolved</option>
        </select>
      </div>
      <p class="visually-hidden" role="status">
        {list.summary}
      </p>
      {list.problem && (
        <p id="incidents-error" class="problem" role="alert">
          {list.problem}
        </p>
      )}
      {list.items === null ? (
        !list.problem && <p class="muted">Loading incidents…</p>
      ) : list.items.length === 0 ? (
        <p id="no-incidents" class="muted">
          {status === 'open' ? 'No open incidents: all is well.' : 'No incidents.'}
        </p>
      ) : (
        <div class="table-scroll">
          <table id="incidents-table" class="incidents-table">
            <caption class="visually-hidden">Incidents, open first, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Rule</th>
                <th scope="col">Target</th>
                <th scope="col">Since</th>
                <th scope="col">Resolved</th>
                <th scope="col">Webhook</th>
                <th scope="col">E-mail</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((incident) => (
                <IncidentRow key={incident.id} incident={incident} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.nextCursor && (
        <LoadMore id="incidents-more" loading={list.loadingMore} error={list.moreError} onLoad={() => void list.loadMore()} />
      )}
    </section>
  );
}

function IncidentRow({ incident }: { incident: Incident }) {
  const host = hostOf(incident);
  return (
    <tr id={`incident-${incident.id}`} data-status={incident.status}>
      <td>
        <span class={`incident-status incident-status--${incident.status}`}>{incident.status}</span>
      </td>
      <th scope="row">
        {RULE_LABELS[incident.rule] ?? incident.rule}
        <span class="incident-id muted">{incident.id}</span>
      </th>
      <td>
        {host === incident.target ? <Link href={`/operator/hosts/${host}`}>{incident.target}</Link> : incident.target}
        {host && host !== incident.target && (
          <span class="incident-host">
            on <Link href={`/operator/hosts/${host}`}>{host}</Link>
          </span>
        )}
      </td>
      <td>{formatDateTime(incident.opened_at)}</td>
      <td>{incident.resolved_at ? formatDateTime(incident.resolved_at) : '—'}</td>
      <td>
        <Channel incident={incident} channel="webhook" />
      </td>
      <td>
        <Channel incident={incident} channel="email" />
      </td>
    </tr>
  );
}

/** Per transition (opened, resolved): delivered, retrying, or failed, with the last error. */
function Channel({ incident, channel }: { incident: Incident; channel: Delivery['channel'] }) {
  const deliveries = incident.deliveries.filter((d) => d.channel === channel);
  if (deliveries.length === 0) {
    return <span class="muted">not configured</span>;
  }
  return (
    <ul class="deliveries">
      {deliveries.map((d) => (
        <li key={d.transition} class={`delivery delivery--${d.status}`} title={d.last_error ?? undefined}>
          {d.transition}: {d.status === 'pending' && d.attempts > 0 ? 'retrying' : d.status}
          {d.attempts > 1 && ` after ${d.attempts} attempts`}
          {d.status !== 'delivered' && d.last_error && <span class="delivery-error"> ({d.last_error})</span>}
        </li>
      ))}
    </ul>
  );
}
