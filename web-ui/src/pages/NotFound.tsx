import { Link } from '../router';

export function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p class="lead">
        There is no page at this address. Go to the <Link href="/">home page</Link> or
        the <Link href="/catalog">catalog</Link>.
      </p>
    </>
  );
}
