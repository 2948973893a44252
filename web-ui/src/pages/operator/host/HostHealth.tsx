/** Small pieces the host list and the host page share: a GPU's health and the host's latest reading. */
import { formatDateTime } from '../../../format';
import type { Host, HostGpu } from '../../../operator-hosts';
import { formatValue } from './telemetry';
import './host.css';

export function GpuHealthBadge({ gpu }: { gpu: HostGpu }) {
  const { status, reason, since } = gpu.health;
  const title = [reason, since ? `since ${formatDateTime(since)}` : null].filter(Boolean).join(', ');
  return (
    <span class="gpu-health">
      <span class={`health health--${status}`}>{status}</span>
      {status !== 'healthy' && title && <span class="gpu-health__reason">{title}</span>}
    </span>
  );
}

/** GPU health of a host in one line for the list: "3 healthy, 1 degraded" with each unhealthy GPU named. */
export function GpuHealthSummary({ host }: { host: Host }) {
  if (host.gpus.length === 0) {
    return <>—</>;
  }
  const unhealthy = host.gpus.filter((gpu) => gpu.health.status !== 'healthy');
  const healthy = host.gpus.length - unhealthy.length;
  return (
    <span class="gpu-health-summary">
      <span class="health health--healthy">{healthy} healthy</span>
      {unhealthy.map((gpu) => (
        <span key={gpu.index} class="gpu-health-summary__item">
          GPU {gpu.index}: <GpuHealthBadge gpu={gpu} />
        </span>
      ))}
    </span>
  );
}

/** The host's latest heartbeat telemetry: power and its source, disk, round trip, GPU temperatures. */
export function CurrentTelemetry({ host, compact = false }: { host: Host; compact?: boolean }) {
  const t = host.telemetry;
  if (!t) {
    return <span class="muted">No telemetry yet</span>;
  }
  const temperatures = host.gpus
    .map((gpu) => gpu.telemetry?.temperature_c)
    .filter((v): v is number => typeof v === 'number');
  return (
    <dl class={compact ? 'telemetry-now telemetry-now--compact' : 'telemetry-now'}>
      <div>
        <dt>Power</dt>
        <dd>
          {formatValue(t.power_w, 'W')}
          {t.power_source && <span class="muted"> ({t.power_source})</span>}
        </dd>
      </div>
      <div>
        <dt>Disk free</dt>
        <dd>
          {formatValue(t.disk_free_gb, 'GB')}
          {t.disk_health && <span class={t.disk_health === 'failed' ? 'host-warning' : 'muted'}> SMART {t.disk_health}</span>}
        </dd>
      </div>
      <div>
        <dt>Round trip</dt>
        <dd>{formatValue(t.rtt_ms, 'ms')}</dd>
      </div>
      {temperatures.length > 0 && (
        <div>
          <dt>GPU temperature</dt>
          <dd>
            {formatValue(Math.min(...temperatures), '°C')} – {formatValue(Math.max(...temperatures), '°C')}
          </dd>
        </div>
      )}
      {!compact && (
        <div>
          <dt>Sampled</dt>
          <dd>{formatDateTime(t.at)}</dd>
        </div>
      )}
    </dl>
  );
}
