/** The operator's hosts: the list with their status and actions, and enrolling a new host. */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { formatDateTime } from '../../format';
import { formatUptime } from '../../offers';
import { formatSeconds } from '../../time-to-ready';
import {
  activateHost,
  canActivate,
  canDeactivate,
  deactivateHost,
  isolationWarnings,
  listHosts,
  reissueEnrolmentToken,
  revokeCredential,
  rotateCredential,
  type EnrolledHost,
  type Host,
} from '../../operator-hosts';
import type { Me } from '../../session';
import { EnrolForm } from './EnrolForm';
import { CurrentTelemetry, GpuHealthSummary } from './host/HostHealth';
import { MaintenancePanel } from './maintenance/MaintenancePanel';
import { SecretPanel } from './SecretPanel';

export function HostsPage({ me }: { me: Me }) {
  const [hosts, setHosts] = useState<Host[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [enrolled, setEnrolled] = useState<EnrolledHost | null>(null);
  const [reissued, setReissued] = useState(false);
  const [rotated, setRotated] = useState<{ host: string; credential: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [maintained, setMaintained] = useState<Host | null>(null);

  const load = useCallback((signal?: AbortSignal) => {
    listHosts(signal)
      .then((page) => setHosts(page.data))
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

  const act = async (host: Host, what: string, action: () => Promise<unknown>) => {
    setBusy(`${host.id}:${what}`);
    setError(null);
    try {
      const result = await action();
      if (what === 'rotate' && result && typeof result === 'object' && 'credential' in result) {
        setRotated({ host: host.name, credential: String(result.credential) });
      }
      if (what === 'reissue' && result && typeof result === 'object' && 'agent_command' in result) {
        setEnrolled({ ...host, ...(result as Pick<EnrolledHost, 'agent_command'>) } as EnrolledHost);
        setReissued(true);
      }
      load();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="hosts-heading">
      <h2 id="hosts-heading">Hosts</h2>
      {error && (
        <p id="hosts-error" class="problem" role="alert">
          {error}
        </p>
      )}
      {enrolled ? (
        <SecretPanel
          id="enrolment"
          title={reissued ? `New enrolment token for ${enrolled.name}` : `Enrol ${enrolled.name}`}
          warning={
            reissued
              ? 'This new token replaces the earlier ones, which no longer work. It works once, for 24 hours, and is shown only now. Run this on the host:'
              : 'The enrolment token works once, for 24 hours, and is shown only now. Run this on the host:'
          }
          label="Agent command"
          secret={enrolled.agent_command}
          onDone={() => setEnrolled(null)}
        />
      ) : (
        <EnrolForm
          me={me}
          onEnrolled={(host) => {
            setEnrolled(host);
            setReissued(false);
            load();
          }}
        />
      )}
      {rotated && (
        <SecretPanel
          id="rotated"
          title={`New credential for ${rotated.host}`}
          warning="Shown only now. Write it to <state-dir>/credential (mode 0600) on the host and restart the agent."
          label="Host credential"
          secret={rotated.credential}
          onDone={() => setRotated(null)}
        />
      )}
      {hosts === null ? (
        <p class="muted" role="status">
          Loading hosts…
        </p>
      ) : hosts.length === 0 ? (
        <p id="no-hosts" class="muted">
          No hosts yet: enrol the first one above.
        </p>
      ) : (
        <div class="table-scroll">
          <table id="hosts-table" class="hosts-table">
            <caption class="visually-hidden">Hosts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Host</th>
                <th scope="col">Status</th>
                <th scope="col">GPUs</th>
                <th scope="col">GPU health</th>
                <th scope="col">Telemetry</th>
                <th scope="col">Last heartbeat</th>
                <th scope="col">Service</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {hosts.map((host) => (
                <HostRow key={host.id} host={host} busy={busy} onAct={act} me={me} onMaintain={setMaintained} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {maintained && <MaintenancePanel me={me} host={maintained} onClose={() => setMaintained(null)} />}
    </section>
  );
}

interface HostRowProps {
  host: Host;
  me: Me;
  busy: string | null;
  onAct: (host: Host, what: string, action: () => Promise<unknown>) => Promise<void>;
  onMaintain: (host: Host) => void;
}

function HostRow({ host, me, busy, onAct, onMaintain }: HostRowProps) {
  const [price, setPrice] = useState('');
  const gpus = host.gpus.length === 0 ? '—' : `${host.gpus.length} × ${host.gpus[0]?.model ?? host.gpus[0]?.nvidia_smi_name}`;
  const button = (what: string, label: string, action: () => Promise<unknown>, danger = false) => (
    <button
      type="button"
      class={danger ? 'btn btn--small btn--danger' : 'btn btn--small'}
      id={`${what}-${host.id}`}
      disabled={busy !== null}
      aria-busy={busy === `${host.id}:${what}` ? 'true' : undefined}
      onClick={() => void onAct(host, what, action)}
    >
      {label}
    </button>
  );
  return (
    <tr id={`host-${host.id}`} data-status={host.status}>
      <th scope="row">
        <a href={`/operator/hosts/${encodeURIComponent(host.id)}`} id={`open-${host.id}`}>
          {host.name}
        </a>
        <span class="host-id muted">{host.id}</span>
      </th>
      <td>
        <span class={`host-status host-status--${host.status}`}>{host.status}</span>
        {host.status === 'degraded' && host.health_reason && <span class="host-warning">{host.health_reason}</span>}
        {isolationWarnings(host).map((warning, i) => (
          <span class="host-warning" id={`isolation-${host.id}-${i}`} key={warning}>
            {warning}
          </span>
        ))}
      </td>
      <td>
        {gpus}
        {host.unknown_gpu_names.length > 0 && (
          <span class="host-warning">Unknown GPU: {host.unknown_gpu_names.join(', ')}</span>
        )}
      </td>
      <td>
        <GpuHealthSummary host={host} />
      </td>
      <td>
        <CurrentTelemetry host={host} compact />
      </td>
      <td>{host.last_heartbeat_at ? formatDateTime(host.last_heartbeat_at) : '—'}</td>
      <td>
        <dl class="host-service">
          <dt>{'Uptime 30\u00a0d'}</dt>
          <dd
            class="host-uptime"
            title={host.uptime ? `24 h ${formatUptime(host.uptime['24h'])}, 7 d ${formatUptime(host.uptime['7d'])}, maintenance ${host.uptime.maintenance_hours_30d} h` : undefined}
          >
            {formatUptime(host.uptime?.['30d'])}
          </dd>
          <dt>{'Ready p50\u00a0/\u00a0p95'}</dt>
          <dd class="host-ready" title={host.time_to_ready ? `${host.time_to_ready.samples} launches in 30 d` : undefined}>
            {host.time_to_ready
              ? `${formatSeconds(host.time_to_ready.p50_seconds)} / ${formatSeconds(host.time_to_ready.p95_seconds)}`
              : 'no data yet'}
          </dd>
          <dt>Incidents</dt>
          <dd class="host-incidents">
            {host.open_incidents ? (
              <a href="/operator/incidents" id={`incidents-${host.id}`} class="host-warning">
                {host.open_incidents} open
              </a>
            ) : (
              <span class="muted">none</span>
            )}
          </dd>
        </dl>
      </td>
      <td>
        <div class="host-actions">
          {canActivate(host) && (
            <span class="activate">
              <label for={`price-${host.id}`} class="visually-hidden">
                Price per GPU-hour in USD for {host.name} (empty: the site's default)
              </label>
              <input
                id={`price-${host.id}`}
                class="price-input"
                type="number"
                min="0.01"
                step="0.01"
                placeholder="USD/GPU-h"
                value={price}
                onInput={(e) => setPrice(e.currentTarget.value)}
              />
              {button('activate', 'Activate', () =>
                activateHost(
                  me,
                  host.id,
                  price ? { amount: Math.round(Number(price) * 100), currency: 'usd' } : undefined,
                ),
              )}
            </span>
          )}
          {canDeactivate(host) && button('deactivate', 'Deactivate', () => deactivateHost(me, host.id))}
          <button type="button" class="btn btn--small" id={`maintenance-${host.id}`} onClick={() => onMaintain(host)}>
            Maintenance
          </button>
          {host.status === 'enrolling' &&
            button('reissue', 'New enrolment token', () => reissueEnrolmentToken(me, host.id))}
          {host.credential_prefix && button('rotate', 'Rotate credential', () => rotateCredential(me, host.id))}
          {host.credential_prefix && button('revoke', 'Revoke credential', () => revokeCredential(me, host.id), true)}
        </div>
      </td>
    </tr>
  );
}
