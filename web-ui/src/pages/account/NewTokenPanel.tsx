import { useEffect, useRef, useState } from 'preact/hooks';
import type { CreatedApiToken } from '../../tokens';
import { focusElement } from './account-errors';

/** The token just created, with its secret: shown once, with a copy button. */
export function NewTokenPanel({ token, onDone }: { token: CreatedApiToken; onDone: () => void }) {
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

