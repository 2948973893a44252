/**
 * `/operator/hosts/{host_id}`: one host's status, each GPU's health and latest reading, and
 * charts of temperature, power and utilization over a chosen range, and what it costs.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { formatDateTime } from '../../../format';
import { getHost, isolationWarnings, type Host } from '../../../operator-hosts';
import type { Me } from '../../../session';
import { CostsPanel } from './CostsPanel';
import { CurrentTelemetry, GpuHealthBadge } from './HostHealth';
import { TelemetryChart } from './TelemetryChart';
import { chartSpecs, fetchTelemetry, formatValue, RANGES, type RangeId, type TelemetrySeries } from './telemetry';
import './host.css';

export function HostPage({ me, hostId }: { me: Me; hostId: string }) {
  const [host, setHost] = useState<Host | null>(null);
  const [range, setRange] = useState<RangeId>('6h');
  const [series, setSeries] = useState<TelemetrySeries | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getHost(hostId, controller.signal)
      .then(setHost)
      .catch((e: unknown) => !controller.signal.aborted && setError(e instanceof Error ? e.message : String(e)));
    return () => controller.abort();
  }, [hostId]);

  useEffect(() => {
    const controller = new AbortController();
    setSeries(null);
    fetchTelemetry(hostId, range, controller.signal)
      .then(setSeries)
      .catch((e: unknown) => !controller.signal.aborted && setError(e instanceof Error ? e.message : String(e)));
    return () => controller.abort();
  }, [hostId, range]);

  const specs = useMemo(() => (series ? chartSpecs(series) : []), [series]);

  return (
    <section aria-labelledby="host-heading" class="host-page">
      <p>
        <a href="/operator/hosts">← All hosts</a>
      </p>
      <h2 id="host-heading">{host ? host.name : hostId}</h2>
      {error && (
        <p id="host-error" class="problem" role="alert">
          {error}
        </p>
      )}
      {host && (
        <>
          <p id="host-summary">
            <span class={`host-status host-status--${host.status}`}>{host.status}</span>{' '}
            {host.status === 'degraded' && host.health_reason && <span class="host-warning">{host.health_reason}</span>}
            {isolationWarnings(host).map((warning) => (
              <span class="host-warning" key={warning}>
                {warning}
              </span>
            ))}
            <span class="muted">
              {' '}
              Last heartbeat {host.last_heartbeat_at ? formatDateTime(host.last_heartbeat_at) : 'never'}
            </span>
          </p>
          <CurrentTelemetry host={host} />
          <div class="table-scroll">
            <table id="gpu-table" class="hosts-table">
              <caption>GPUs: health and latest reading</caption>
              <thead>
                <tr>
                  <th scope="col">GPU</th>
                  <th scope="col">Health</th>
                  <th scope="col">Temperature</th>
                  <th scope="col">Power</th>
                  <th scope="col">Utilization</th>
                </tr>
              </thead>
              <tbody>
                {host.gpus.map((gpu) => (
                  <tr key={gpu.index} id={`gpu-${gpu.index}`} data-health={gpu.health.status}>
                    <th scope="row">
                      {gpu.index}: {gpu.model ?? gpu.nvidia_smi_name}
                    </th>
                    <td>
                      <GpuHealthBadge gpu={gpu} />
                    </td>
                    <td>{formatValue(gpu.telemetry?.temperature_c, '°C')}</td>
                    <td>{formatValue(gpu.telemetry?.power_draw_w, 'W')}</td>
                    <td>{formatValue(gpu.telemetry?.utilization_pct, '%')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <h3 id="charts-heading">Telemetry</h3>
      <div class="range-picker" role="group" aria-labelledby="charts-heading">
        {RANGES.map((r) => (
          <button
            type="button"
            key={r.id}
            id={`range-${r.id}`}
            class="btn btn--small"
            aria-pressed={range === r.id ? 'true' : 'false'}
            onClick={() => setRange(r.id)}
          >
            {r.label}
          </button>
        ))}
      </div>
      {series === null ? (
        <p class="muted" role="status">
          Loading telemetry…
        </p>
      ) : (
        <>
          <p class="muted" id="series-resolution">
            {series.resolution === 'raw'
              ? `From heartbeat samples, averaged over ${formatValue(series.bucket_seconds, 's')}.`
              : `From hourly roll-ups, averaged over ${formatValue(series.bucket_seconds / 3600, 'h')}.`}
          </p>
          <div class="telemetry-charts">
            {specs.map((spec) => (
              <TelemetryChart key={spec.id} spec={spec} />
            ))}
          </div>
        </>
      )}
      {host && <CostsPanel me={me} hostId={hostId} entered={host.costs_entered === true} />}
    </section>
  );
}
