/** An itemized price (base, discounts, fees, taxes) with its total, as a table. */
import { money, type Money, type PriceItem } from './offers';
import './price-table.css';

export interface ItemsTableProps {
  id: string;
  items: PriceItem[];
  total: Money;
  /** Element id of the total's cell. */
  totalId?: string;
  /** For screen readers (the caption is visually hidden). */
  caption: string;
}

export function ItemsTable({ id, items, total, totalId, caption }: ItemsTableProps) {
  return (
    <div class="table-wrap">
      <table id={id} class="data-table price-table">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col" class="num">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {(items ?? []).map((item, index) => (
            <tr key={`${item.kind}-${index}`} class={`price-item price-item--${item.kind}`} data-kind={item.kind}>
              <th scope="row">{item.description}</th>
              <td class="num">{money(item.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td id={totalId} class="num price-table__total">
              {money(total)}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
