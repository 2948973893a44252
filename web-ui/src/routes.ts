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

export const SITE_NAME = 'GPU Rental Gateway';
