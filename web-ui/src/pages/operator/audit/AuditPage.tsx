/** The audit log with filters: who changed what, when, and what it was before and after. */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { Field } from '../../../fields';
import { formatDateTime } from '../../../format';
import { LoadMore } from '../../../load-more';
import { usePagedList } from '../../../paged-list';
import { changes, listAudit, type AuditEntry, type AuditFilter } from './audit-api';
import './audit.css';

const EMPTY: AuditFilter = { actor: '', action: '', target: '', from: '', to: '' };

function Change({ entry }: { entry: AuditEntry }) {
  const lines = changes(entry.before, entry.after);
  if (lines.length === 0) {
    return <span class="muted">no details</span>;
  }
  return (
    <table class="audit-change">
      <thead><tr><th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
      <tbody>
        {lines.map((line) => (
          <tr key={line.key}>
            <th scope="row">{line.key}</th>
            <td class="audit-before">{line.before}</td>
            <td class="audit-after">{line.after}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Filters({ onApply }: { onApply: (filter: AuditFilter) => void }) {
  const [draft, setDraft] = useState(EMPTY);
  const input = (key: keyof AuditFilter, label: string, hint: string, type = 'text') => (
    <Field id={`audit-${key}`} label={label} hint={hint}>
      {(control) => (
        <input {...control} type={type} value={draft[key]}
          onInput={(e) => setDraft({ ...draft, [key]: e.currentTarget.value })} />
      )}
    </Field>
  );
  const onSubmit = (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form id="audit-filters" class="panel audit-filters" onSubmit={onSubmit}>
      {input('actor', 'Who', 'e.g. account:acc_…')}
      {input('action', 'Action', 'exact, or a prefix ending in a dot: price.')}
      {input('target', 'Target', 'e.g. off_… or H100 SXM@site_…')}
      {input('from', 'From', 'your time zone', 'datetime-local')}
      {input('to', 'Until', 'your time zone', 'datetime-local')}
      <div class="audit-filters__buttons">
        <button id="audit-apply" type="submit" class="btn btn--primary">Filter</button>
        <button id="audit-clear" type="button" class="btn" onClick={() => { setDraft(EMPTY); onApply(EMPTY); }}>Clear</button>
      </div>
    </form>
  );
}

export function AuditPage() {
  const [filter, setFilter] = useState(EMPTY);
  const list = usePagedList<AuditEntry, string>({
    fetchPage: (cursor, signal) => listAudit(filter, cursor, signal),
    deps: [filter],
    noun: 'entry',
    plural: 'entries',
    emptyText: 'No audit entries match.',
    loadProblem: (caught) => (caught instanceof Error ? caught.message : String(caught)),
    moreProblem: (caught) => (caught instanceof Error ? caught.message : String(caught)),
  });
  return (
    <section aria-labelledby="audit-heading" class="audit-page">
      <h2 id="audit-heading">Audit</h2>
      <Filters onApply={setFilter} />
      <p id="audit-status" class="muted" role="status">{list.summary}</p>
      {list.problem && <p id="audit-error" class="problem" role="alert">{list.problem}</p>}
      {list.items && list.items.length > 0 && (
        <div class="table-scroll">
          <table id="audit-table" class="audit-table">
            <caption class="visually-hidden">Audit entries, newest first</caption>
            <thead>
              <tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Change</th></tr>
            </thead>
            <tbody>
              {list.items.map((entry) => (
                <tr key={entry.id}>
                  <td><time dateTime={entry.at}>{formatDateTime(entry.at)}</time></td>
                  <td>{entry.actor}</td>
                  <td><code>{entry.action}</code><span class="host-id">{entry.target}</span></td>
                  <td><Change entry={entry} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.nextCursor && (
        <LoadMore id="audit-more" loading={list.loadingMore} error={list.moreError} onLoad={() => void list.loadMore()} />
      )}
    </section>
  );
}
