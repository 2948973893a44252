/** The refunds of one payment: date, amount, reason and status. */
import { formatDateTime } from './format';
import { money } from './offers';
import { refundReasonLabel, refundStatusLabel, type Refund } from './payments';

export interface RefundsTableProps {
  id: string;
  refunds: Refund[] | null | undefined;
  /** For screen readers (the caption is visually hidden). */
  caption: string;
  /** Shown (with `<id>-empty`) when there are none; nothing when omitted. */
  emptyText?: string;
}

export function RefundsTable({ id, refunds, caption, emptyText }: RefundsTableProps) {
  const list = Array.isArray(refunds) ? refunds : [];
  if (list.length === 0) {
    return emptyText ? (
      <p id={`${id}-empty`} class="muted">
        {emptyText}
      </p>
    ) : null;
  }
  return (
    <div class="table-wrap">
      <table id={id} class="data-table refunds-table">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col" class="num">
              Amount
            </th>
            <th scope="col">Reason</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {list.map((refund) => (
            <tr key={refund.id} class="refund-row" data-refund-id={refund.id} data-status={refund.status}>
              <td class="refund-row__date">
                <time dateTime={refund.created_at}>{formatDateTime(refund.created_at)}</time>
              </td>
              <td class="num refund-row__amount">{money(refund.amount)}</td>
              <td class="refund-row__reason" data-reason={refund.reason}>
                {refund.kind === 'credit' ? 'Credit' : refundReasonLabel(refund.reason)}
                {refund.note && <span class="refund-row__note">“{refund.note}”</span>}
              </td>
              <td class="refund-row__status">{refundStatusLabel(refund.status)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
