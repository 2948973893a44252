/**
 * Wiring of a form field to its server-side error: the field's aria attributes and the error
 * line under it (element ids are `<field id>-error`).
 */
export function fieldErrorHelpers(fieldError: (name: string) => string | undefined, fieldIds: Record<string, string>) {
  const describe = (name: string, hintId?: string) => {
    const error = fieldError(name);
    const ids = [hintId, error ? `${fieldIds[name]}-error` : undefined].filter(Boolean).join(' ');
    return {
      'aria-invalid': error ? ('true' as const) : undefined,
      'aria-describedby': ids || undefined,
    };
  };

  const errorLine = (name: string) => {
    const error = fieldError(name);
    return error ? (
      <p id={`${fieldIds[name]}-error`} class="field-error">
        {error}
      </p>
    ) : null;
  };

  return { describe, errorLine };
}
