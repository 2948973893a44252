/** A reservation (or extension) status as a coloured, labelled badge. */
import { statusClass, statusLabel } from './reservations';
import './status-badge.css';

export function StatusBadge({ status, id }: { status: string; id?: string }) {
  return (
    <span id={id} class={`status-badge status-badge--${statusClass(status)}`} data-status={status}>
      {statusLabel(status)}
    </span>
  );
}
