import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api';
import type { Me } from '../../session';
import { listTokens, revokeToken, TOKEN_LIST_LIMIT, type ApiToken, type CreatedApiToken } from '../../tokens';
import { errorMessage, focusElement, handleAuthError } from './account-errors';
import { NewTokenPanel } from './NewTokenPanel';
import { TokenForm } from './TokenForm';
import { TokenRow } from './TokenRow';

/** "API tokens": the list with revoke (confirmed inline), the new token's secret, and the form. */
export function Tokens({ me, onChange }: { me: Me; onChange?: () => void }) {
  const [tokens, setTokens] = useState<ApiToken[] | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [confirmingId, setConfirmingId] = useState<string | null>(null);
  const [revokingId, setRevokingId] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const loadSeq = useRef(0);
  const mounted = useRef(true);

  const reload = useCallback(async () => {
    const seq = ++loadSeq.current;
    try {
      const page = await listTokens();
      if (!mounted.current || seq !== loadSeq.current) {
        return;
      }
      setTokens(Array.isArray(page?.data) ? page.data : []);
      setHasMore(Boolean(page?.next_cursor));
      setLoadError(null);
    } catch (error) {
      if (!mounted.current || seq !== loadSeq.current || handleAuthError(error)) {
        return;
      }
      setLoadError(errorMessage(error, 'Could not load your API tokens.'));
    }
  }, []);

  useEffect(() => {
    mounted.current = true;
    void reload();
    return () => {
      mounted.current = false;
    };
  }, [reload]);

  const onRevokeClick = async (token: ApiToken) => {
    if (confirmingId !== token.id) {
      setConfirmingId(token.id);
      setListError(null);
      setStatus(`Press “Confirm revoke” to revoke the token “${token.name}”, or “Cancel” to keep it.`);
      return;
    }
    setRevokingId(token.id);
    setListError(null);
    try {
      await revokeToken(me, token.id);
    } catch (error) {
      if (handleAuthError(error)) {
        return;
      }
      // Already gone (404): the list below catches up.
      if (!(error instanceof ApiError && error.status === 404)) {
        setRevokingId(null);
        setListError(`Could not revoke “${token.name}”: ${errorMessage(error, 'request failed')}`);
        return;
      }
    }
    if (!mounted.current) {
      return;
    }
    setTokens((current) => current?.filter((candidate) => candidate.id !== token.id) ?? current);
    setConfirmingId(null);
    setRevokingId(null);
    setStatus(`Token “${token.name}” revoked.`);
    onChange?.();
    // The row (and its focused button) is gone: continue from the section heading.
    focusElement(headingRef.current);
    void reload();
  };

  const cancelRevoke = (token: ApiToken) => {
    setConfirmingId(null);
    setStatus(`Kept the token “${token.name}”.`);
  };

  const onCreated = (token: CreatedApiToken) => {
    setCreated(token);
    setStatus(`Token “${token.name}” created.`);
    onChange?.();
    void reload();
  };

  const onDone = () => {
    setCreated(null);
    setStatus('');
    focusElement(headingRef.current);
  };

  const isOperator = me.roles.includes('operator');

  return (
    <section class="section" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading" ref={headingRef}>
        API tokens
      </h2>
      <p>
        Tokens let scripts and tools call the <a href="/docs">HTTP API</a> as you, limited to the scopes you choose.
      </p>
      <p id="token-status" class="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
      {created && <NewTokenPanel token={created} onDone={onDone} />}
      {listError && (
        <div id="token-list-error" class="alert alert--error" role="alert">
          <p>{listError}</p>
        </div>
      )}
      {loadError ? (
        <div id="token-load-error" class="alert alert--error" role="alert">
          <p>Could not load your API tokens: {loadError}</p>
          <button type="button" class="btn" onClick={() => void reload()}>
            Try again
          </button>
        </div>
      ) : tokens === null ? (
        <p class="muted">Loading tokens…</p>
      ) : tokens.length === 0 ? (
        <p id="token-empty" class="empty-state">
          You have no API tokens yet. Create one below.
        </p>
      ) : (
        <>
          <div class="table-wrap" role="region" aria-labelledby="tokens-heading" tabIndex={0}>
            <table id="token-table" class="data-table">
              <caption class="visually-hidden">Your API tokens</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((token) => (
                  <TokenRow
                    key={token.id}
                    token={token}
                    confirming={confirmingId === token.id}
                    revoking={revokingId === token.id}
                    onRevoke={() => void onRevokeClick(token)}
                    onCancel={() => cancelRevoke(token)}
                  />
                ))}
              </tbody>
            </table>
          </div>
          {hasMore && (
            <p class="muted">Showing your first {TOKEN_LIST_LIMIT} tokens. Revoke unused ones to see the rest.</p>
          )}
        </>
      )}
      <TokenForm me={me} isOperator={isOperator} onCreated={onCreated} />
      <h3 class="subheading">Using a token</h3>
      <p>Send it as a bearer token:</p>
      <pre id="token-curl" class="code-block">
        <code>{`curl -H "Authorization: Bearer gpr_…" ${window.location.origin}/api/v1/me`}</code>
      </pre>
    </section>
  );
}

