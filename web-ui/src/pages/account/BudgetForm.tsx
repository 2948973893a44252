import { useState } from 'preact/hooks';
import { type BudgetCaps, CAP_FIELDS, fromMinor, toMinor } from '../../budgets';
import { Field } from '../../fields';

interface BudgetFormProps {
  /** Element id prefix (unique on the page). */
  id: string;
  heading: string;
  currency: string;
  initial: BudgetCaps | null;
  busy: boolean;
  onSave: (caps: BudgetCaps) => void;
  onCancel?: () => void;
  /** A second action, e.g. "Remove default". */
  onRemove?: () => void;
  removeLabel?: string;
}

/** The six caps of a budget; money in the currency's major unit, empty for no cap. */
export function BudgetForm({ id, heading, currency, initial, busy, onSave, onCancel, onRemove, removeLabel }: BudgetFormProps) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      CAP_FIELDS.map((field) => {
        const value = initial ? initial[field.key] : null;
        return [field.key, field.money ? fromMinor(value, currency) : value === null ? '' : String(value)];
      }),
    ),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = (event: Event) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    const caps = {} as BudgetCaps;
    for (const field of CAP_FIELDS) {
      const text = values[field.key] ?? '';
      if (field.money) {
        const minor = toMinor(text, currency);
        if (minor === undefined) {
          found[field.key] = 'Enter an amount such as 200 or 200.00, or leave it empty for no cap.';
        }
        caps[field.key] = minor ?? null;
      } else if (text.trim() === '') {
        caps[field.key] = null;
      } else if (!/^\d{1,4}$/.test(text.trim()) || Number(text) < 1) {
        found[field.key] = 'Enter whole hours (at least 1), or leave it empty.';
      } else {
        caps[field.key] = Number(text);
      }
    }
    setErrors(found);
    if (Object.keys(found).length === 0) {
      onSave(caps);
    }
  };

  return (
    <form id={id} class="form panel budget-form" noValidate aria-labelledby={`${id}-heading`} onSubmit={submit}>
      <h3 id={`${id}-heading`}>{heading}</h3>
      <p class="hint">Amounts in {currency.toUpperCase()}. Leave a field empty for no cap.</p>
      <div class="budget-fields">
        {CAP_FIELDS.map((field) => (
          <Field key={field.key} id={`${id}-${field.key}`} label={field.label} hint={field.hint} error={errors[field.key]}>
            {(control) => (
              <input
                {...control}
                type="text"
                name={field.key}
                inputMode={field.money ? 'decimal' : 'numeric'}
                value={values[field.key]}
                onInput={(event) => setValues({ ...values, [field.key]: event.currentTarget.value })}
              />
            )}
          </Field>
        ))}
      </div>
      <div class="button-row">
        <button type="submit" class="btn btn--primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        {onRemove && (
          <button type="button" class="btn" disabled={busy} onClick={onRemove}>
            {removeLabel ?? 'Remove'}
          </button>
        )}
        {onCancel && (
          <button type="button" class="btn" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
