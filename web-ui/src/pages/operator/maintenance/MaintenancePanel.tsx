/**
 * One host's maintenance windows: the upcoming and current ones (each can be cancelled) and a
 * form to plan one. Reservations the window would overlap are shown first and the operator must
 * confirm before it is saved.
 */
import type { JSX } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { Field } from '../../../fields';
import { formatDateTime } from '../../../format';
import {
  cancelMaintenance,
  listMaintenance,
  OverlapsFound,
  previewMaintenance,
  scheduleMaintenance,
  type MaintenanceOverlap,
  type MaintenanceWindow,
} from '../../../maintenance';
import { localInputToUtc } from '../../../offers';
import type { Me } from '../../../session';
import type { Host } from '../../../operator-hosts';
import './maintenance.css';

export function MaintenancePanel({ me, host, onClose }: { me: Me; host: Host; onClose: () => void }) {
  const [windows, setWindows] = useState<MaintenanceWindow[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    listMaintenance(host.id)
      .then((page) => setWindows(page.data))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [host.id]);
  useEffect(load, [load]);
  // the panel opens below the table: take the operator (and a screen reader) to it
  useEffect(() => document.getElementById('maintenance-heading')?.focus(), [host.id]);

  const cancel = (window: MaintenanceWindow) => {
    setError(null);
    cancelMaintenance(me, host.id, window.id)
      .then(load)
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  };

  return (
    <section id="maintenance-panel" class="panel maintenance-panel" aria-labelledby="maintenance-heading">
      <h3 id="maintenance-heading" tabIndex={-1}>Maintenance of {host.name}</h3>
      {error && (
        <p id="maintenance-error" class="problem" role="alert">
          {error}
        </p>
      )}
      {windows === null ? (
        <p class="muted" role="status">Loading windows…</p>
      ) : windows.length === 0 ? (
        <p id="no-maintenance" class="muted">No maintenance planned.</p>
      ) : (
        <ul id="maintenance-windows" class="maintenance-list">
          {windows.map((w) => (
            <li key={w.id} data-maintenance-id={w.id}>
              {formatDateTime(w.starts_at)} – {formatDateTime(w.ends_at)}
              {w.drain && <strong> (drain)</strong>}: {w.reason}{' '}
              <button type="button" class="btn btn--small btn--danger" id={`cancel-${w.id}`} onClick={() => cancel(w)}>
                Cancel
              </button>
            </li>
          ))}
        </ul>
      )}
      <MaintenanceForm me={me} host={host} onSaved={load} />
      <button type="button" class="btn btn--small" id="maintenance-close" onClick={onClose}>
        Close
      </button>
    </section>
  );
}

function MaintenanceForm({ me, host, onSaved }: { me: Me; host: Host; onSaved: () => void }) {
  const [form, setForm] = useState({ start: '', end: '', drain: false, reason: '' });
  const [overlaps, setOverlaps] = useState<MaintenanceOverlap[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (acknowledged: boolean) => {
    const starts = localInputToUtc(form.start);
    const ends = localInputToUtc(form.end);
    if (!starts || !ends) {
      setError('Choose a start and an end.');
      return;
    }
    setBusy(true);
    setError(null);
    const window = { starts_at: starts, ends_at: ends, drain: form.drain, reason: form.reason.trim() };
    try {
      // the overlaps are shown before anything is saved; a reservation made meanwhile still
      // makes the unacknowledged save answer 409 with the list (caught below)
      const found = acknowledged ? [] : await previewMaintenance(me, host.id, window);
      if (found.length > 0) {
        setOverlaps(found);
        return;
      }
      await scheduleMaintenance(me, host.id, window, acknowledged);
      setOverlaps(null);
      setForm({ start: '', end: '', drain: false, reason: '' });
      onSaved();
    } catch (e) {
      if (e instanceof OverlapsFound) {
        setOverlaps(e.overlaps);
      } else {
        setError(e instanceof Error ? e.message : String(e));
      }
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit(false);
  };

  return (
    <form id="maintenance-form" class="maintenance-form" onSubmit={onSubmit} noValidate>
      <h4>Plan a window</h4>
      {error && <p id="maintenance-form-error" class="problem" role="alert">{error}</p>}
      <Field id="maintenance-start" label="Starts">
        {(control) => <input {...control} type="datetime-local" required value={form.start}
          onInput={(e) => setForm({ ...form, start: e.currentTarget.value })} />}
      </Field>
      <Field id="maintenance-end" label="Ends">
        {(control) => <input {...control} type="datetime-local" required value={form.end}
          onInput={(e) => setForm({ ...form, end: e.currentTarget.value })} />}
      </Field>
      <Field id="maintenance-reason" label="Reason">
        {(control) => <input {...control} type="text" required maxLength={500} value={form.reason}
          onInput={(e) => setForm({ ...form, reason: e.currentTarget.value })} />}
      </Field>
      <label class="maintenance-drain">
        <input id="maintenance-drain" type="checkbox" checked={form.drain}
          onChange={(e) => setForm({ ...form, drain: e.currentTarget.checked })} />
        Drain: take no new reservation from now until the window ends (otherwise only reservations overlapping
        the window are refused)
      </label>
      {overlaps ? (
        <OverlapConfirm overlaps={overlaps} busy={busy} onConfirm={() => void submit(true)}
          onBack={() => setOverlaps(null)} />
      ) : (
        <button id="maintenance-submit" type="submit" class="btn btn--primary" disabled={busy}>
          Plan maintenance
        </button>
      )}
    </form>
  );
}

interface OverlapConfirmProps {
  overlaps: MaintenanceOverlap[];
  busy: boolean;
  onConfirm: () => void;
  onBack: () => void;
}

function OverlapConfirm({ overlaps, busy, onConfirm, onBack }: OverlapConfirmProps) {
  return (
    <div id="maintenance-overlaps" class="maintenance-overlaps" role="alert">
      <p>
        Not saved yet: {overlaps.length === 1 ? '1 existing reservation overlaps' : `${overlaps.length} existing reservations overlap`}{' '}
        this window. Planning it does not cancel them; contact the renters or move the window.
      </p>
      <table class="data-table">
        <caption class="visually-hidden">Reservations the window overlaps</caption>
        <thead>
          <tr><th scope="col">Reservation</th><th scope="col">Status</th><th scope="col">Window</th><th scope="col">GPUs</th></tr>
        </thead>
        <tbody>
          {overlaps.map((o) => (
            <tr key={o.id}>
              <th scope="row">{o.id}</th>
              <td>{o.status}</td>
              <td>{formatDateTime(o.window.start)} – {formatDateTime(o.window.end)}</td>
              <td>{o.gpu_count}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button id="maintenance-confirm" type="button" class="btn btn--primary" disabled={busy} onClick={onConfirm}>
        Plan it anyway
      </button>{' '}
      <button type="button" class="btn" onClick={onBack}>Change the window</button>
    </div>
  );
}
