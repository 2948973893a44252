import { useRef, useState } from 'preact/hooks';
import { shortRef } from '../../images';
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
        {r.image && (
          <div>
            <dt>Image</dt>
            <dd>
              <code id="instance-image" title={r.image.ref}>{shortRef(r.image.ref)}</code>
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
      {(r.ports ?? []).length > 0 && (
        <div class="published-ports">
          <h3 id="ports-heading">Published ports</h3>
          <table id="published-ports" class="data-table" aria-labelledby="ports-heading">
            <thead>
              <tr><th scope="col">Container port</th><th scope="col">Reach it at</th></tr>
            </thead>
            <tbody>
              {(r.ports ?? []).map((p) => (
                <tr key={p.container_port} data-port={p.container_port}>
                  <th scope="row">{p.container_port}</th>
                  <td><code>{p.address}</code></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

