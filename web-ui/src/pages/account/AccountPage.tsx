import { useState } from 'preact/hooks';
import { providerAuthHref, providerLabel, PROVIDERS } from '../../auth';
import { formatDateTime } from '../../format';
import { PaymentMethodsSection } from '../../payment-methods';
import type { Me } from '../../session';
import { SignedInPage } from '../../signed-in';
import { Budgets } from './Budgets';
import { OAuthGrants } from './OAuthGrants';
import { Tokens } from './Tokens';
import './account.css';

/** `/account`: profile, sign-in methods, the saved card and API tokens. */
export function AccountPage() {
  // bumped when a token is created or revoked, so the budgets list follows
  const [tokensVersion, setTokensVersion] = useState(0);
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
          <Tokens me={me} onChange={() => setTokensVersion((version) => version + 1)} />
          <Budgets me={me} version={tokensVersion} />
          <OAuthGrants me={me} />
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

