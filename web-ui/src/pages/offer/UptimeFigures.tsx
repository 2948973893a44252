/** The host's measured uptime over 24 h, 7 d and 30 d, with the formula that produced it. */
import { formatUptime, type OfferDetail } from '../../offers';

const hoursFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

export function UptimeFigures({ offer }: { offer: OfferDetail }) {
  const uptime = offer.uptime;
  const figures: [string, number | null | undefined][] = [
    ['Last 24 hours', uptime?.['24h']],
    ['Last 7 days', uptime?.['7d']],
    ['Last 30 days', uptime?.['30d']],
  ];
  return (
    <section class="section" aria-labelledby="uptime-heading">
      <h2 id="uptime-heading">Uptime</h2>
      <dl id="offer-uptime" class="uptime-figures">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{formatUptime(value)}</dd>
          </div>
        ))}
      </dl>
      <p class="hint" id="uptime-formula">
        Measured by the gateway from the host's heartbeats: uptime = 1 − down time ÷ (period − planned maintenance).
        Down time is time the host was offline outside planned maintenance; only time since the host was first
        activated counts, and time it was taken out of service does not.
        {uptime && ` Planned maintenance in the last 30 days: ${hoursFormat.format(uptime.maintenance_hours_30d)} h.`}
      </p>
    </section>
  );
}
