import { formatCount } from '../../offers';
import { formatSeconds, type TimeToReady } from '../../time-to-ready';

/** The offer's measured time-to-ready: p50, p95 and how many launches they come from. */
export function ReadyTime({ figure }: { figure: TimeToReady | null | undefined }) {
  return (
    <section class="section" aria-labelledby="ready-time-heading">
      <h2 id="ready-time-heading">Time to ready</h2>
      {figure ? (
        <div class="table-wrap">
          <table id="offer-ready-time" class="data-table spec-table">
            <caption class="visually-hidden">Time to ready of this offer, last 30 days</caption>
            <tbody>
              <tr>
                <th scope="row">Median (p50)</th>
                <td>{formatSeconds(figure.p50_seconds)}</td>
              </tr>
              <tr>
                <th scope="row">95th percentile (p95)</th>
                <td>{formatSeconds(figure.p95_seconds)}</td>
              </tr>
              <tr>
                <th scope="row">Launches, last 30 days</th>
                <td>{formatCount(figure.samples)}</td>
              </tr>
            </tbody>
          </table>
        </div>
      ) : (
        <p id="offer-ready-time" class="muted">
          No data yet: no instance has run on this host in the last 30 days.
        </p>
      )}
      <p class="hint">
        From the window's start (or the payment, if later) until the instance runs, any image; per image, cached or
        downloaded first, under Images.
      </p>
    </section>
  );
}
