/**
 * The operator console's sections: one entry per page under /operator/…, in navigation order.
 * A section's page gets the signed-in operator and the rest of the path after its own
 * (for example "/host_abc" for /operator/hosts/host_abc).
 */
import type { ComponentChildren } from 'preact';
import type { Me } from '../../session';
import { HostPage } from './host/HostPage';
import { HostsPage } from './HostsPage';
import { AccountsPage } from './admin/AccountsPage';
import { LedgerPage } from './admin/LedgerPage';
import { ReservationsAdminPage } from './admin/ReservationsPage';
import { AuditPage } from './audit/AuditPage';
import { PricesPage } from './prices/PricesPage';
import { IncidentsPage } from './incidents/IncidentsPage';
import { EconomicsPage } from './economics/EconomicsPage';
import { ImagesPage } from './images/ImagesPage';

export interface OperatorSection {
  /** The path segment after /operator/, e.g. "hosts". */
  slug: string;
  label: string;
  render: (me: Me, rest: string) => ComponentChildren;
}

export const OPERATOR_SECTIONS: readonly OperatorSection[] = [
  {
    slug: 'hosts',
    label: 'Hosts',
    render: (me, rest) => {
      const host = /^\/(host_[A-Za-z0-9_]+)$/.exec(rest);
      return host?.[1] ? <HostPage me={me} hostId={host[1]} /> : <HostsPage me={me} />;
    },
  },
  // the fleet and what goes wrong with it first, then what it earns, then people and money
  { slug: 'incidents', label: 'Incidents', render: () => <IncidentsPage /> },
  { slug: 'images', label: 'Images', render: (me) => <ImagesPage me={me} /> },
  { slug: 'prices', label: 'Prices', render: (me) => <PricesPage me={me} /> },
  { slug: 'economics', label: 'Economics', render: () => <EconomicsPage /> },
  { slug: 'reservations', label: 'Reservations', render: (me) => <ReservationsAdminPage me={me} /> },
  { slug: 'accounts', label: 'Accounts', render: (me) => <AccountsPage me={me} /> },
  { slug: 'ledger', label: 'Ledger', render: () => <LedgerPage /> },
  { slug: 'audit', label: 'Audit', render: () => <AuditPage /> },
];

/** The section of an /operator/… path and the rest of the path after it; null when none matches. */
export function operatorSection(path: string): { section: OperatorSection; rest: string } | null {
  const match = /^\/operator(?:\/([^/]+)(\/.*)?)?$/.exec(path);
  if (!match) {
    return null;
  }
  const section = match[1] ? OPERATOR_SECTIONS.find((candidate) => candidate.slug === match[1]) : OPERATOR_SECTIONS[0];
  return section ? { section, rest: match[2] ?? '' } : null;
}
