import { Link } from '../router';
import './Home.css';

export function Home() {
  return (
    <>
      <h1>Welcome to GPU Rental Gateway</h1>
      <p class="lead">Rent GPU capacity by the hour, with the full price shown before you book.</p>
      <p class="cta">
        <Link id="browse-gpus" class="btn btn--primary btn--large" href="/catalog">
          Browse GPUs
        </Link>
      </p>
      <ul class="card-list">
        <li class="card">
          <h2><Link href="/catalog">Catalog</Link></h2>
          <p>Browse bookable GPU capacity and all-in hourly prices.</p>
        </li>
        <li class="card">
          <h2><Link href="/reservations">Reservations</Link></h2>
          <p>See and manage your upcoming, active and past rentals.</p>
        </li>
        <li class="card">
          <h2><Link href="/account">Account</Link></h2>
          <p>Your profile, sign-in methods, payments and invoices.</p>
        </li>
        <li class="card">
          <h2><a href="/docs">API docs</a></h2>
          <p>Automate rentals with the HTTP API.</p>
        </li>
      </ul>
    </>
  );
}
