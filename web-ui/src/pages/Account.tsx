import type { JSX } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { providerAuthHref, providerLabel, PROVIDERS } from '../auth';
import { formatDateTime } from '../format';
import { PaymentMethodsSection } from '../payment-methods';
import { markSignedOut, type Me } from '../session';
import { SignedInPage } from '../signed-in';
import {
  createToken,
  endOfDayUtc,
  listTokens,
  revokeToken,
  todayUtc,
  TOKEN_LIST_LIMIT,
  TOKEN_SCOPES,
  type ApiToken,
  type CreatedApiToken,
} from '../tokens';
import './account.css';

function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status === 401) {
    return 'Your session has ended. Sign in again to continue.';
  }
  if (error instanceof Error && error.message) {
    return error.message;
  }
  return fallback;
}

/** An expired session ends the signed-in view instead of failing call by call. */
function handleAuthError(error: unknown): boolean {
  if (error instanceof ApiError && error.status === 401) {
    markSignedOut();
    return true;
  }
  return false;
}

function focusElement(element: HTMLElement | null | undefined): void {
  if (element) {
    if (!element.hasAttribute('tabindex') && !(element instanceof HTMLInputElement)) {
      element.setAttribute('tabindex', '-1');
    }
    element.focus();
  }
}

export function AccountPage() {
  return (
    <SignedInPage
      title="Account"
      loadingText="Loading your account…"
      signInText="Sign in to see your profile, your sign-in methods, your saved card and your API tokens."
      returnTo="/account"
      idPrefix="account"
      errorId="account-error"
    >
      {(me) => (
        <>
          <h1>Account</h1>
          <Profile me={me} />
          <SignInMethods me={me} />
          <PaymentMethodsSection me={me} />
          <Tokens me={me} />
        </>
      )}
    </SignedInPage>
  );
}

function Profile({ me }: { me: Me }) {
  return (
    <section class="section" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <dl class="details">
        <div>
          <dt>Display name</dt>
          <dd id="profile-name">{me.display_name}</dd>
        </div>
        <div>
          <dt>Primary email</dt>
          <dd id="profile-email">{me.primary_email ?? <span class="muted">Not provided</span>}</dd>
        </div>
        <div>
          <dt>Account ID</dt>
          <dd>
            <code id="profile-id">{me.id}</code>
          </dd>
        </div>
        <div>
          <dt>Roles</dt>
          <dd id="profile-roles">{me.roles.length > 0 ? me.roles.join(', ') : <span class="muted">None</span>}</dd>
        </div>
        <div>
          <dt>Member since</dt>
          <dd id="profile-created">{formatDateTime(me.created_at)}</dd>
        </div>
      </dl>
    </section>
  );
}

function SignInMethods({ me }: { me: Me }) {
  const linked = new Set(me.identities.map((identity) => identity.provider.toLowerCase()));
  const unlinked = PROVIDERS.filter((provider) => !linked.has(provider.id));
  return (
    <section class="section" aria-labelledby="identities-heading">
      <h2 id="identities-heading">Sign-in methods</h2>
      {me.identities.length > 0 ? (
        <ul id="identity-list" class="identity-list">
          {me.identities.map((identity) => (
            <li
              key={`${identity.provider}:${identity.login ?? identity.email ?? ''}`}
              class="identity"
              data-provider={identity.provider}
            >
              <span class="identity__provider">{providerLabel(identity.provider)}</span>
              {(identity.login || identity.email) && (
                <span class="identity__who">{identity.login ?? identity.email}</span>
              )}
              <span class="identity__linked muted">Linked {formatDateTime(identity.linked_at)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No sign-in methods are linked.</p>
      )}
      {unlinked.length > 0 && (
        <div class="link-providers">
          <p id="link-providers-note">Signing in with another provider while signed in links it to this account.</p>
          <ul class="button-row">
            {unlinked.map((provider) => (
              <li key={provider.id}>
                <a
                  id={`link-${provider.id}`}
                  class="btn"
                  href={providerAuthHref(provider.id, '/account')}
                  aria-describedby="link-providers-note"
                >
                  Link {provider.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function Tokens({ me }: { me: Me }) {
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

interface TokenRowProps {
  token: ApiToken;
  confirming: boolean;
  revoking: boolean;
  onRevoke: () => void;
  onCancel: () => void;
}

function TokenRow({ token, confirming, revoking, onRevoke, onCancel }: TokenRowProps) {
  const expired = token.expires_at !== null && new Date(token.expires_at).getTime() <= Date.now();
  const onKeyDown = (event: JSX.TargetedKeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'Escape' && confirming) {
      event.preventDefault();
      onCancel();
    }
  };
  return (
    <tr class="token-row" data-token-id={token.id}>
      <th scope="row" class="token-name">
        {token.name}
      </th>
      <td>
        <code class="token-prefix">{token.prefix}</code>
      </td>
      <td class="token-scopes">
        <ul class="scope-list">
          {token.scopes.map((scope) => (
            <li key={scope}>
              <code class="scope">{scope}</code>
            </li>
          ))}
        </ul>
      </td>
      <td class="token-created">{formatDateTime(token.created_at)}</td>
      <td class="token-last-used">{token.last_used_at ? formatDateTime(token.last_used_at) : 'never'}</td>
      <td class="token-expires">
        {token.expires_at ? formatDateTime(token.expires_at) : 'never'}
        {expired && <span class="badge">expired</span>}
      </td>
      <td class="token-actions">
        <button
          type="button"
          class={`btn btn--small btn--danger revoke-token${confirming ? ' revoke-token--confirm' : ''}`}
          aria-label={confirming ? `Confirm revoke token ${token.name}` : `Revoke token ${token.name}`}
          disabled={revoking}
          onClick={onRevoke}
          onKeyDown={onKeyDown}
        >
          {revoking ? 'Revoking…' : confirming ? 'Confirm revoke' : 'Revoke'}
        </button>
        {confirming && !revoking && (
          <button
            type="button"
            class="btn btn--small cancel-revoke"
            aria-label={`Keep token ${token.name}`}
            onClick={onCancel}
          >
            Cancel
          </button>
        )}
      </td>
    </tr>
  );
}

function NewTokenPanel({ token, onDone }: { token: CreatedApiToken; onDone: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [copyStatus, setCopyStatus] = useState('');

  useEffect(() => {
    focusElement(headingRef.current);
    setCopyStatus('');
  }, [token.id]);

  const selectSecret = () => {
    inputRef.current?.focus();
    inputRef.current?.select();
  };

  const copy = async () => {
    try {
      if (!navigator.clipboard || typeof navigator.clipboard.writeText !== 'function') {
        throw new Error('Clipboard unavailable');
      }
      await navigator.clipboard.writeText(token.token);
      setCopyStatus('Copied');
    } catch {
      selectSecret();
      setCopyStatus('Selected: press Ctrl+C (⌘C on a Mac) to copy.');
    }
  };

  return (
    <div id="new-token" class="panel panel--success" role="region" aria-labelledby="new-token-heading">
      <h3 id="new-token-heading" ref={headingRef} tabIndex={-1}>
        New token “{token.name}”
      </h3>
      <p id="new-token-warning" class="warning">
        <strong>Store it now: you will not see this token again.</strong>
      </p>
      <label for="new-token-secret">Token secret</label>
      <div class="copy-row">
        <input
          id="new-token-secret"
          ref={inputRef}
          type="text"
          readOnly
          value={token.token}
          spellcheck={false}
          autoComplete="off"
          aria-describedby="new-token-warning"
          onFocus={(event) => event.currentTarget.select()}
        />
        <button id="copy-token" type="button" class="btn btn--primary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p id="copy-status" class="copy-status" role="status" aria-live="polite">
        {copyStatus}
      </p>
      <button id="new-token-done" type="button" class="btn" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

interface TokenFormProps {
  me: Me;
  isOperator: boolean;
  onCreated: (token: CreatedApiToken) => void;
}

function TokenForm({ me, isOperator, onCreated }: TokenFormProps) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [expires, setExpires] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<'name' | 'scopes' | 'expires' | null>(null);
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const expiresRef = useRef<HTMLInputElement>(null);
  const scopesRef = useRef<HTMLFieldSetElement>(null);

  const available = TOKEN_SCOPES.filter((info) => !info.operatorOnly || isOperator);
  const minDate = todayUtc();

  const toggleScope = (scope: string, checked: boolean) => {
    setScopes((current) =>
      checked ? (current.includes(scope) ? current : [...current, scope]) : current.filter((s) => s !== scope),
    );
    if (checked && invalid === 'scopes') {
      setInvalid(null);
      setError(null);
    }
  };

  const fail = (field: 'name' | 'scopes' | 'expires' | null, message: string) => {
    setInvalid(field);
    setError(message);
    if (field === 'name') {
      nameRef.current?.focus();
    } else if (field === 'scopes') {
      scopesRef.current?.querySelector<HTMLInputElement>('input')?.focus();
    } else if (field === 'expires') {
      expiresRef.current?.focus();
    }
  };

  const onSubmit = async (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) {
      return;
    }
    const trimmed = name.trim();
    if (!trimmed) {
      fail('name', 'Enter a name for the token.');
      return;
    }
    if (trimmed.length > 100) {
      fail('name', 'The name can be at most 100 characters.');
      return;
    }
    const chosen = TOKEN_SCOPES.map((info) => info.scope).filter(
      (scope) => scopes.includes(scope) && available.some((info) => info.scope === scope),
    );
    if (chosen.length === 0) {
      fail('scopes', 'Choose at least one scope for the token.');
      return;
    }
    let expiresAt: string | undefined;
    if (expires) {
      const instant = endOfDayUtc(expires);
      if (!instant) {
        fail('expires', 'Enter the expiry as a valid date.');
        return;
      }
      if (new Date(instant).getTime() <= Date.now()) {
        fail('expires', 'Choose an expiry date in the future.');
        return;
      }
      expiresAt = instant;
    }

    setBusy(true);
    setError(null);
    setInvalid(null);
    try {
      const token = await createToken(me, {
        name: trimmed,
        scopes: chosen,
        ...(expiresAt ? { expires_at: expiresAt } : {}),
      });
      setName('');
      setScopes([]);
      setExpires('');
      onCreated(token);
    } catch (caught) {
      if (handleAuthError(caught)) {
        return;
      }
      fail(null, errorMessage(caught, 'Could not create the token.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      id="token-form"
      class="form panel"
      noValidate
      aria-labelledby="token-form-heading"
      onSubmit={(event) => void onSubmit(event)}
    >
      <h3 id="token-form-heading">Create a token</h3>
      {error && (
        <div id="token-form-error" class="alert alert--error" role="alert">
          <p>{error}</p>
        </div>
      )}
      <div class="field">
        <label for="token-name">Name</label>
        <input
          id="token-name"
          ref={nameRef}
          type="text"
          name="name"
          required
          maxLength={100}
          autoComplete="off"
          value={name}
          aria-invalid={invalid === 'name' ? 'true' : undefined}
          aria-describedby={invalid === 'name' ? 'token-name-hint token-form-error' : 'token-name-hint'}
          onInput={(event) => setName(event.currentTarget.value)}
        />
        <p id="token-name-hint" class="hint">
          What the token is for, e.g. “ci” or “laptop script”.
        </p>
      </div>
      <fieldset
        class={`field checkbox-group${invalid === 'scopes' ? ' checkbox-group--invalid' : ''}`}
        ref={scopesRef}
        aria-describedby={invalid === 'scopes' ? 'token-form-error' : undefined}
      >
        <legend>Scopes</legend>
        {available.map((info) => (
          <div class="checkbox" key={info.scope}>
            <input
              id={info.inputId}
              type="checkbox"
              name="scopes"
              value={info.scope}
              checked={scopes.includes(info.scope)}
              aria-describedby={`${info.inputId}-hint`}
              onChange={(event) => toggleScope(info.scope, event.currentTarget.checked)}
            />
            <label for={info.inputId}>
              <code>{info.scope}</code>
            </label>
            <span id={`${info.inputId}-hint`} class="hint">
              {info.description}
            </span>
          </div>
        ))}
      </fieldset>
      <div class="field">
        <label for="token-expires">Expires (optional)</label>
        <input
          id="token-expires"
          ref={expiresRef}
          type="date"
          name="expires"
          min={minDate}
          value={expires}
          aria-invalid={invalid === 'expires' ? 'true' : undefined}
          aria-describedby={invalid === 'expires' ? 'token-expires-hint token-form-error' : 'token-expires-hint'}
          onInput={(event) => setExpires(event.currentTarget.value)}
          onChange={(event) => setExpires(event.currentTarget.value)}
        />
        <p id="token-expires-hint" class="hint">
          The token stops working at the end of that day (UTC). Leave empty for a token that does not expire.
        </p>
      </div>
      <button
        id="create-token"
        type="submit"
        class="btn btn--primary"
        aria-disabled={busy ? 'true' : undefined}
        aria-busy={busy ? 'true' : undefined}
      >
        Create token
      </button>
    </form>
  );
}
