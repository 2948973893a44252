import { useEffect, useState } from 'preact/hooks';
import { formatCount } from '../../offers';
import { formatSeconds, getCatalogSummary, type TimeToReady } from '../../time-to-ready';

/** The fleet-wide time-to-ready above the results; nothing while it is loading or failed. */
export function FleetReadyTime() {
  const [figure, setFigure] = useState<TimeToReady | null | undefined>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    getCatalogSummary(controller.signal)
      .then((summary) => setFigure(summary?.time_to_ready ?? null))
      .catch(() => setFigure(undefined));
    return () => controller.abort();
  }, []);
  if (figure === undefined) {
    return null;
  }
  return (
    <p id="fleet-ready-time" class="fleet-ready-time">
      {figure
        ? `Instances are ready in ~${formatSeconds(figure.p50_seconds)} (median; 95 % within ${formatSeconds(
            figure.p95_seconds,
          )}) across the fleet, from ${formatCount(figure.samples)} launches in the last 30 days.`
        : 'Time-to-ready across the fleet: no data yet.'}{' '}
      Not running within the ready deadline? Every started hour of delay is credited automatically.
    </p>
  );
}
