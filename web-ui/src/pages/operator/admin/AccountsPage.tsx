/** Operator console → Accounts: search, grant or revoke operator, suspend or lift a suspension (each confirmed). */
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatDateTime } from '../../../format';
import { LoadMore } from '../../../load-more';
import { errorText } from '../../../offers';
import { usePagedList } from '../../../paged-list';
import type { Me } from '../../../session';
import { searchAccounts, setOperator, suspendAccount, unsuspendAccount, type AdminAccount } from './admin-api';
import './admin.css';

type Pending = { account: AdminAccount; action: 'grant' | 'revoke' | 'suspend' | 'unsuspend' };

export function AccountsPage({ me }: { me: Me }) {
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const list = usePagedList<AdminAccount, string>({
    fetchPage: (cursor, signal) => searchAccounts(query, cursor, signal),
    deps: [query],
    noun: 'account',
    emptyText: 'No account matches.',
    loadProblem: (caught) => errorText(caught, 'Could not load the accounts.'),
    moreProblem: (caught) => errorText(caught, 'Could not load more accounts.'),
  });

  return (
    <section aria-labelledby="accounts-heading" class="admin-page">
      <h2 id="accounts-heading">Accounts</h2>
      <form
        id="account-search"
        class="admin-filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setPending(null);
          setQuery(draft);
        }}
      >
        <div class="field">
          <label for="account-q">Name, email, login or account id</label>
          <input id="account-q" type="search" value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
        </div>
        <button type="submit" class="btn btn--primary">
          Search
        </button>
      </form>
      {message && (
        <p id="accounts-message" class="notice" role="status">
          {message}
        </p>
      )}
      <p class="visually-hidden" role="status">
        {list.summary}
      </p>
      {list.problem && (
        <p id="accounts-error" class="alert alert--error" role="alert">
          {list.problem}
        </p>
      )}
      {list.items && list.items.length === 0 && <p class="muted">No account matches.</p>}
      {list.items && list.items.length > 0 && (
        <div class="table-wrap">
          <table id="accounts-table" class="data-table admin-table">
            <caption class="visually-hidden">Accounts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Sign-ins</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((account) => (
                <AccountRow
                  key={account.id}
                  account={account}
                  self={account.id === me.id}
                  pending={pending?.account.id === account.id ? pending : null}
                  onAsk={(action) => {
                    setMessage(null);
                    setPending({ account, action });
                  }}
                  onCancel={() => setPending(null)}
                  onDone={(text) => {
                    setPending(null);
                    setMessage(text);
                    list.reload();
                  }}
                  me={me}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.nextCursor && (
        <LoadMore id="accounts-more" loading={list.loadingMore} error={list.moreError} onLoad={() => void list.loadMore()} />
      )}
    </section>
  );
}

interface RowProps {
  account: AdminAccount;
  self: boolean;
  me: Me;
  pending: Pending | null;
  onAsk: (action: Pending['action']) => void;
  onCancel: () => void;
  onDone: (message: string) => void;
}

function AccountRow({ account, self, me, pending, onAsk, onCancel, onDone }: RowProps) {
  const name = account.display_name || account.id;
  const revokeBlocked = self ? 'You cannot remove your own operator role.'
    : account.operator.by_config ? 'Operator by config: remove it from auth.operators in the configuration.' : null;
  return (
    <>
      <tr id={`account-${account.id}`} data-suspended={account.suspension ? 'true' : 'false'}>
        <th scope="row">
          {name}
          {account.primary_email && <span class="admin-sub">{account.primary_email}</span>}
          <span class="admin-sub muted">{account.id}</span>
        </th>
        <td>
          {account.identities.map((identity) => (
            <span class="admin-sub" key={`${identity.provider}:${identity.login ?? identity.email}`}>
              {identity.provider}: {identity.login ?? identity.email ?? '—'}
            </span>
          ))}
        </td>
        <td>
          {account.operator.granted ? 'Operator' : 'Renter'}
          {account.operator.by_config && <span class="admin-sub muted">by config</span>}
        </td>
        <td class="account-status">
          {account.suspension ? (
            <>
              <strong class="badge badge--danger">Suspended</strong>
              <span class="admin-sub">since {formatDateTime(account.suspension.since)}</span>
              <span class="admin-sub">“{account.suspension.reason}”</span>
            </>
          ) : (
            'Active'
          )}
        </td>
        <td>
          <div class="admin-actions">
            {account.operator.granted ? (
              <button type="button" class="btn btn--small" id={`revoke-${account.id}`} disabled={revokeBlocked !== null}
                title={revokeBlocked ?? undefined} onClick={() => onAsk('revoke')}>
                Remove operator
              </button>
            ) : (
              <button type="button" class="btn btn--small" id={`grant-${account.id}`} onClick={() => onAsk('grant')}>
                Make operator
              </button>
            )}
            {account.suspension ? (
              <button type="button" class="btn btn--small" id={`unsuspend-${account.id}`} onClick={() => onAsk('unsuspend')}>
                Lift suspension
              </button>
            ) : (
              <button type="button" class="btn btn--small btn--danger" id={`suspend-${account.id}`} disabled={self}
                title={self ? 'You cannot suspend yourself.' : undefined} onClick={() => onAsk('suspend')}>
                Suspend…
              </button>
            )}
          </div>
          {revokeBlocked && account.operator.granted && <span class="admin-sub muted">{revokeBlocked}</span>}
        </td>
      </tr>
      {pending && (
        <tr class="admin-confirm-row">
          <td colSpan={5}>
            <Confirm pending={pending} me={me} name={name} onCancel={onCancel} onDone={onDone} />
          </td>
        </tr>
      )}
    </>
  );
}

const QUESTIONS: Record<Pending['action'], (name: string) => string> = {
  grant: (name) => `Make ${name} an operator? They can then change prices, hosts, accounts and refunds.`,
  revoke: (name) => `Remove the operator role from ${name}? Their operator tokens and console stop at once.`,
  suspend: (name) =>
    `Suspend ${name}? Every token and session of the account is refused at once and sign-in is blocked until the suspension is lifted.`,
  unsuspend: (name) => `Lift the suspension of ${name}? Their tokens and sessions work again.`,
};

function Confirm({ pending, me, name, onCancel, onDone }: {
  pending: Pending;
  me: Me;
  name: string;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = pending.account.id;
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    // keyboard and screen-reader users land on the question they must answer
    form.current?.querySelector<HTMLElement>('textarea, button[type="submit"]')?.focus();
  }, [pending.action, id]);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      if (pending.action === 'grant' || pending.action === 'revoke') {
        await setOperator(me, id, pending.action === 'grant');
        onDone(pending.action === 'grant' ? `${name} is now an operator.` : `${name} is no longer an operator.`);
      } else if (pending.action === 'suspend') {
        await suspendAccount(me, id, reason.trim());
        onDone(`${name} is suspended.`);
      } else {
        await unsuspendAccount(me, id);
        onDone(`${name}'s suspension is lifted.`);
      }
    } catch (caught) {
      setError(errorText(caught, 'That did not work.'));
      setBusy(false);
    }
  };
  return (
    <form
      ref={form}
      id={`confirm-${pending.action}-${id}`}
      class="admin-confirm"
      aria-label={`Confirm: ${pending.action}`}
      onSubmit={(e) => {
        e.preventDefault();
        void run();
      }}
    >
      <p>{QUESTIONS[pending.action](name)}</p>
      {pending.action === 'suspend' && (
        <div class="field">
          <label for={`reason-${id}`}>Reason (shown to the account holder)</label>
          <textarea id={`reason-${id}`} required minLength={3} maxLength={500} rows={2} value={reason}
            onInput={(e) => setReason(e.currentTarget.value)} />
        </div>
      )}
      {error && (
        <p class="alert alert--error" role="alert">
          {error}
        </p>
      )}
      <div class="form-actions">
        <button type="submit" id={`confirm-${id}`} class={pending.action === 'suspend' ? 'btn btn--danger' : 'btn btn--primary'}
          disabled={busy || (pending.action === 'suspend' && reason.trim().length < 3)} aria-busy={busy ? 'true' : undefined}>
          {pending.action === 'suspend' ? 'Suspend account' : 'Confirm'}
        </button>
        <button type="button" class="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
