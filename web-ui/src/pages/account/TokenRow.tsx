import type { JSX } from 'preact';
import { formatDateTime } from '../../format';
import type { ApiToken } from '../../tokens';

interface TokenRowProps {
  token: ApiToken;
  confirming: boolean;
  revoking: boolean;
  onRevoke: () => void;
  onCancel: () => void;
}

export function TokenRow({ token, confirming, revoking, onRevoke, onCancel }: TokenRowProps) {
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

