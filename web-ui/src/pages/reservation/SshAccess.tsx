import { useRef, useState } from 'preact/hooks';
import { FINAL_STATUSES, type Reservation } from '../../reservations';

export function SshAccess({ reservation: r }: { reservation: Reservation }) {
  const command = r.ssh?.command || r.ssh?.endpoint || null;
  const codeRef = useRef<HTMLElement>(null);
  const [copyStatus, setCopyStatus] = useState('');

  const copy = async () => {
    if (!command) {
      return;
    }
    try {
      if (!navigator.clipboard || typeof navigator.clipboard.writeText !== 'function') {
        throw new Error('Clipboard unavailable');
      }
      await navigator.clipboard.writeText(command);
      setCopyStatus('Copied');
    } catch {
      // No clipboard access (plain HTTP, permissions): select the text for Ctrl+C instead.
      const selection = window.getSelection();
      if (selection && codeRef.current) {
        selection.selectAllChildren(codeRef.current);
      }
      setCopyStatus('Selected: press Ctrl+C (⌘C on a Mac) to copy.');
    }
  };

  return (
    <section id="ssh-access" class="section" aria-labelledby="ssh-heading">
      <h2 id="ssh-heading">SSH access</h2>
      {command ? (
        <>
          <p id="ssh-command-label" class="ssh-command-label">
            Connect with:
          </p>
          <pre id="ssh-command" class="code-block" aria-labelledby="ssh-command-label">
            <code ref={codeRef}>{command}</code>
          </pre>
          <div class="copy-row">
            <button id="copy-ssh-command" type="button" class="btn" onClick={() => void copy()}>
              Copy command
            </button>
          </div>
          <p id="ssh-copy-status" class="copy-status" role="status" aria-live="polite">
            {copyStatus}
          </p>
        </>
      ) : (
        <p id="ssh-pending" class="muted">
          {FINAL_STATUSES.includes(r.status)
            ? 'This reservation is over; its machine is no longer reachable.'
            : 'The SSH command appears here once your machine is running.'}
        </p>
      )}
      <dl class="details">
        <div>
          <dt>Key fingerprint</dt>
          <dd>
            <code id="ssh-fingerprint">{r.ssh?.fingerprint || '—'}</code>
          </dd>
        </div>
        {r.ssh?.endpoint && (
          <div>
            <dt>Endpoint</dt>
            <dd>
              <code id="ssh-endpoint">{r.ssh.endpoint}</code>
            </dd>
          </div>
        )}
        {r.ssh?.user && (
          <div>
            <dt>User</dt>
            <dd>
              <code id="ssh-user">{r.ssh.user}</code>
            </dd>
          </div>
        )}
      </dl>
    </section>
  );
}

