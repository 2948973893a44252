import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { Field } from '../../fields';
import type { Me } from '../../session';
import { createToken, endOfDayUtc, todayUtc, TOKEN_SCOPES, type CreatedApiToken } from '../../tokens';
import { errorMessage, handleAuthError } from './account-errors';

interface TokenFormProps {
  me: Me;
  isOperator: boolean;
  onCreated: (token: CreatedApiToken) => void;
}

/** "Create a token": a name, the scopes (from TOKEN_SCOPES, operator-only ones for operators) and an expiry. */
export function TokenForm({ me, isOperator, onCreated }: TokenFormProps) {
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
      <Field
        id="token-name"
        label="Name"
        hint="What the token is for, e.g. “ci” or “laptop script”."
        invalidBy={invalid === 'name' ? 'token-form-error' : null}
      >
        {(control) => (
          <input
            {...control}
            ref={nameRef}
            type="text"
            name="name"
            required
            maxLength={100}
            autoComplete="off"
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
          />
        )}
      </Field>
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
      <Field
        id="token-expires"
        label="Expires (optional)"
        hint="The token stops working at the end of that day (UTC). Leave empty for a token that does not expire."
        invalidBy={invalid === 'expires' ? 'token-form-error' : null}
      >
        {(control) => (
          <input
            {...control}
            ref={expiresRef}
            type="date"
            name="expires"
            min={minDate}
            value={expires}
            onInput={(event) => setExpires(event.currentTarget.value)}
            onChange={(event) => setExpires(event.currentTarget.value)}
          />
        )}
      </Field>
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
