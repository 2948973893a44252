/** `/operator` and `/operator/hosts`: operator tools, for now the fleet's hosts. */
import { SignedInPage } from '../../signed-in';
import { HostsPage } from './HostsPage';
import './operator.css';

export function OperatorPage() {
  return (
    <SignedInPage
      title="Operator"
      loadingText="Checking your sign-in…"
      signInText="Sign in as an operator to manage hosts."
      returnTo="/operator/hosts"
      idPrefix="operator"
    >
      {(me) =>
        me.roles.includes('operator') ? (
          <>
            <h1>Operator</h1>
            <nav aria-label="Operator" class="sub-nav">
              <a href="/operator/hosts" aria-current="page">
                Hosts
              </a>
            </nav>
            <HostsPage me={me} />
          </>
        ) : (
          <>
            <h1>Operator</h1>
            <p id="operator-only" class="lead">
              These tools are for operators of the GPU hosts.
            </p>
          </>
        )
      }
    </SignedInPage>
  );
}
