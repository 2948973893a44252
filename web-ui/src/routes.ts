export interface NavItem {
  path: string;
  label: string;
  /** One sentence on what the page will hold. */
  summary: string;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { path: '/catalog', label: 'Catalog', summary: 'Bookable GPU capacity with all-in hourly prices.' },
  {
    path: '/reservations',
    label: 'Reservations',
    summary: 'Your upcoming, active and past GPU rentals, with their times and costs.',
  },
  {
    path: '/account',
    label: 'Account',
    summary: 'Your profile, linked sign-in providers, payment methods and invoices.',
  },
  {
    path: '/operator',
    label: 'Operator',
    summary: 'Tools for operators to manage GPU inventory, pricing and capacity.',
  },
];

const OPERATOR_PATH = '/operator';

/** Shown in the header only to signed-in visitors, after "Reservations". */
export const PAYMENTS_NAV_ITEM: NavItem = {
  path: '/payments',
  label: 'Payments',
  summary: 'Your card payments with their receipts and refunds.',
};

/** The header navigation: signed-in visitors also get "Payments", and only operators "Operator". */
export function navItems(me: { roles: string[] } | null): readonly NavItem[] {
  const items = NAV_ITEMS.filter((item) => item.path !== OPERATOR_PATH || me?.roles.includes('operator'));
  if (!me) {
    return items;
  }
  const at = items.findIndex((item) => item.path === '/reservations') + 1;
  return [...items.slice(0, at), PAYMENTS_NAV_ITEM, ...items.slice(at)];
}

export const SITE_NAME = 'GPU Rental Gateway';
