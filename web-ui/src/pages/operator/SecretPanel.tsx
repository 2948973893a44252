/** A secret shown once (an enrolment command, a host credential), with a copy button. */
import { useEffect, useRef, useState } from 'preact/hooks';

interface SecretPanelProps {
  id: string;
  title: string;
  warning: string;
  label: string;
  secret: string;
  onDone: () => void;
}

export function SecretPanel({ id, title, warning, label, secret, onDone }: SecretPanelProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const [status, setStatus] = useState('');

  useEffect(() => {
    headingRef.current?.focus();
    setStatus('');
  }, [secret]);

  const copy = async () => {
    try {
      if (!navigator.clipboard || typeof navigator.clipboard.writeText !== 'function') {
        throw new Error('Clipboard unavailable');
      }
      await navigator.clipboard.writeText(secret);
      setStatus('Copied');
    } catch {
      fieldRef.current?.focus();
      fieldRef.current?.select();
      setStatus('Selected: press Ctrl+C (⌘C on a Mac) to copy.');
    }
  };

  return (
    <div id={id} class="panel panel--success" role="region" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} ref={headingRef} tabIndex={-1}>
        {title}
      </h3>
      <p id={`${id}-warning`} class="warning">
        <strong>{warning}</strong>
      </p>
      <label for={`${id}-secret`}>{label}</label>
      <div class="copy-row">
        <textarea
          id={`${id}-secret`}
          ref={fieldRef}
          class="secret"
          readOnly
          rows={3}
          spellcheck={false}
          aria-describedby={`${id}-warning`}
          onFocus={(event) => event.currentTarget.select()}
          value={secret}
        />
        <button id={`${id}-copy`} type="button" class="btn btn--primary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p id={`${id}-copy-status`} class="copy-status" role="status" aria-live="polite">
        {status}
      </p>
      <button id={`${id}-done`} type="button" class="btn" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
