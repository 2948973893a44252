/**
 * The operator console's sections: one entry per page under /operator/…, in navigation order.
 * A section's page gets the signed-in operator and the rest of the path after its own
 * (for example "/host_abc" for /operator/hosts/host_abc).
 */
import type { ComponentChildren } from 'preact';
import type { Me } from '../../session';
import { HostsPage } from './HostsPage';
import { EconomicsPage } from './economics/EconomicsPage';

export interface OperatorSection {
  /** The path segment after /operator/, e.g. "hosts". */
  slug: string;
  label: string;
  render: (me: Me, rest: string) => ComponentChildren;
}

export const OPERATOR_SECTIONS: readonly OperatorSection[] = [
  { slug: 'hosts', label: 'Hosts', render: (me) => <HostsPage me={me} /> },
  { slug: 'economics', label: 'Economics', render: () => <EconomicsPage /> },
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
