/**
 * chart.js, loaded with the first chart a page draws (only the operator's host and Economics
 * pages have charts, so no other page downloads it), with the controllers those charts use.
 */
import type { Chart } from 'chart.js';

let library: Promise<typeof Chart> | null = null;

export function chartJs(): Promise<typeof Chart> {
  library ??= import('chart.js').then((c) => {
    c.Chart.register(c.BarController, c.BarElement, c.CategoryScale, c.LinearScale, c.LineController, c.LineElement,
      c.PointElement, c.Tooltip, c.Legend);
    return c.Chart;
  });
  return library;
}
