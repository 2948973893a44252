import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { formatDateTime } from '../../format';
import { listOAuthGrants, revokeOAuthGrant, type OAuthGrant } from '../../oauth-grants';
import type { Me } from '../../session';
import { errorMessage, focusElement, handleAuthError } from './account-errors';

/** "Connected MCP clients": the OAuth grants the person consented to, each revocable at once. */
export function OAuthGrants({ me }: { me: Me }) {
  const [grants, setGrants] = useState<OAuthGrant[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [confirmingId, setConfirmingId] = useState<string | null>(null);
  const [revokingId, setRevokingId] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const mounted = useRef(true);

  const reload = useCallback(async () => {
    try {
      const page = await listOAuthGrants();
      if (mounted.current) {
        setGrants(Array.isArray(page?.data) ? page.data : []);
        setError(null);
      }
    } catch (failure) {
      if (mounted.current && !handleAuthError(failure)) {
        setError(errorMessage(failure, 'Could not load your connected MCP clients.'));
      }
    }
  }, []);

  useEffect(() => {
    mounted.current = true;
    void reload();
    return () => {
      mounted.current = false;
    };
  }, [reload]);

  const onRevoke = async (grant: OAuthGrant) => {
    if (confirmingId !== grant.id) {
      setConfirmingId(grant.id);
      setStatus(`Press “Confirm revoke” to disconnect “${grant.client_name}”, or “Cancel” to keep it.`);
      return;
    }
    setRevokingId(grant.id);
    try {
      await revokeOAuthGrant(me, grant.id);
    } catch (failure) {
      if (handleAuthError(failure)) {
        return;
      }
      if (!(failure instanceof ApiError && failure.status === 404)) {
        setRevokingId(null);
        setError(`Could not revoke “${grant.client_name}”: ${errorMessage(failure, 'request failed')}`);
        return;
      }
    }
    if (!mounted.current) {
      return;
    }
    setGrants((current) => current?.filter((candidate) => candidate.id !== grant.id) ?? current);
    setConfirmingId(null);
    setRevokingId(null);
    setStatus(`“${grant.client_name}” disconnected: its tokens no longer work.`);
    focusElement(headingRef.current);
  };

  return (
    <section class="section" aria-labelledby="oauth-grants-heading">
      <h2 id="oauth-grants-heading" ref={headingRef}>
        Connected MCP clients
      </h2>
      <p>
        AI agents you allowed through OAuth at the MCP endpoint (<code>/mcp</code>). Each acts only with the
        permissions and budget you gave it; revoking ends its access at once.
      </p>
      <p id="oauth-grant-status" class="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
      {error && (
        <div id="oauth-grant-error" class="alert alert--error" role="alert">
          <p>{error}</p>
        </div>
      )}
      {grants === null ? (
        !error && <p class="muted">Loading connected clients…</p>
      ) : grants.length === 0 ? (
        <p id="oauth-grant-empty" class="empty-state">
          No MCP client is connected.
        </p>
      ) : (
        <div class="table-wrap" role="region" aria-labelledby="oauth-grants-heading" tabIndex={0}>
          <table id="oauth-grant-table" class="data-table">
            <caption class="visually-hidden">Your connected MCP clients</caption>
            <thead>
              <tr>
                <th scope="col">Client</th>
                <th scope="col">Returns to</th>
                <th scope="col">Permissions</th>
                <th scope="col">Allowed</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {grants.map((grant) => {
                const confirming = confirmingId === grant.id;
                const revoking = revokingId === grant.id;
                return (
                  <tr key={grant.id} class="oauth-grant-row" data-grant-id={grant.id}>
                    <th scope="row">{grant.client_name}</th>
                    <td>
                      <code>{grant.redirect_host}</code>
                    </td>
                    <td>
                      <ul class="scope-list">
                        {grant.scopes.map((scope) => (
                          <li key={scope}>
                            <code class="scope">{scope}</code>
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td>{formatDateTime(grant.created_at)}</td>
                    <td>{grant.last_used_at ? formatDateTime(grant.last_used_at) : 'never'}</td>
                    <td class="token-actions">
                      <button
                        type="button"
                        class="btn btn--small btn--danger revoke-grant"
                        aria-label={confirming ? `Confirm revoke ${grant.client_name}` : `Revoke ${grant.client_name}`}
                        disabled={revoking}
                        onClick={() => void onRevoke(grant)}
                      >
                        {revoking ? 'Revoking…' : confirming ? 'Confirm revoke' : 'Revoke'}
                      </button>
                      {confirming && !revoking && (
                        <button
                          type="button"
                          class="btn btn--small"
                          aria-label={`Keep ${grant.client_name}`}
                          onClick={() => {
                            setConfirmingId(null);
                            setStatus(`Kept “${grant.client_name}”.`);
                          }}
                        >
                          Cancel
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
