/**
 * Form fields: a label, the control, an optional hint (`<id>-hint`) and the field's error
 * line (`<id>-error`), with the control's aria attributes wired to both.
 */
import type { ComponentChildren } from 'preact';

/** What the control of a field carries: its id and the aria wiring to the hint and the error. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': 'true' | undefined;
  'aria-describedby': string | undefined;
}

export interface FieldProps {
  /** The control's element id. */
  id: string;
  label: ComponentChildren;
  /** Shown under the control. */
  hint?: ComponentChildren;
  /** The error line under the control; also marks the control invalid. */
  error?: string | null;
  /**
   * The id of a message shown elsewhere (e.g. the form's alert) that explains why the control is
   * invalid: the control is marked invalid and described by it, without an error line here.
   */
  invalidBy?: string | null;
  /** Extra classes next to `field`. */
  class?: string;
  children: (control: FieldControlProps) => ComponentChildren;
}

export function fieldControlProps(
  id: string,
  { hint, error, invalidBy }: Pick<FieldProps, 'hint' | 'error' | 'invalidBy'>,
): FieldControlProps {
  const hasHint = hint !== undefined && hint !== null && hint !== false;
  const ids = [hasHint ? `${id}-hint` : null, error ? `${id}-error` : null, invalidBy || null].filter(Boolean).join(' ');
  return {
    id,
    'aria-invalid': error || invalidBy ? 'true' : undefined,
    'aria-describedby': ids || undefined,
  };
}

export function Field({ id, label, hint, error, invalidBy, class: extraClass, children }: FieldProps) {
  const hasHint = hint !== undefined && hint !== null && hint !== false;
  return (
    <div class={extraClass ? `field ${extraClass}` : 'field'}>
      <label for={id}>{label}</label>
      {children(fieldControlProps(id, { hint, error, invalidBy }))}
      {hasHint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export interface NumberFieldProps extends Omit<FieldProps, 'children'> {
  name: string;
  value: string;
  min: number;
  max?: number;
  required?: boolean;
  /** Every keystroke. */
  onInput: (value: string) => void;
  /** When the value is committed (blur, Enter, the spinner). */
  onChange?: (value: string) => void;
}

/** A whole-number field (`type=number`, numeric keyboard, step 1). */
export function NumberField({ name, value, min, max, required, onInput, onChange, ...field }: NumberFieldProps) {
  return (
    <Field {...field}>
      {(control) => (
        <input
          {...control}
          type="number"
          name={name}
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          required={required}
          value={value}
          onInput={(event) => onInput(event.currentTarget.value)}
          onChange={onChange ? (event) => onChange(event.currentTarget.value) : undefined}
        />
      )}
    </Field>
  );
}

/** The messages of the field problems about `name`, as one line ('' when none). */
export function errorsFor(problems: readonly { field: string; detail: string }[], name: string): string {
  return problems
    .filter((problem) => problem.field === name)
    .map((problem) => problem.detail)
    .join(' ');
}
