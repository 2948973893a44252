import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { errorsFor, Field, NumberField } from '../../fields';
import { formatDateTime } from '../../format';
import {
  createQuote,
  errorText,
  fieldProblems,
  gpusLabel,
  MAX_HOURS,
  MIN_HOURS,
  parseHours,
  type FieldProblem,
  type OfferDetail,
} from '../../offers';
import { replaceParams, type ChosenWindow } from './chosen-window';
import { hoursHint } from './minimum-charge';
import { QuotePanel } from './QuotePanel';
import { useQuoteWindow } from './useQuoteWindow';
import { useShownQuote } from './useShownQuote';

const QUOTE_FIELD_IDS: Record<string, string> = {
  gpu_count: 'quote-gpu-count',
  start: 'quote-start',
  hours: 'quote-hours',
};

/** "Get a quote" for a window of this offer, and the quote it gave. */
export function QuoteSection({ offer, chosen }: { offer: OfferDetail; chosen: ChosenWindow }) {
  const draft = useQuoteWindow(offer, chosen);
  const { quote, setQuote, notice, setNotice } = useShownQuote(offer.id, chosen.quote);
  const [fields, setFields] = useState<FieldProblem[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const quoteHeadingRef = useRef<HTMLHeadingElement>(null);
  const focusQuote = useRef(false);
  const formHeadingRef = useRef<HTMLHeadingElement>(null);
  const focusForm = useRef(false);
  const { counts } = draft;

  useEffect(() => {
    if (quote && focusQuote.current) {
      focusQuote.current = false;
      quoteHeadingRef.current?.focus();
    }
    if (!quote && focusForm.current) {
      focusForm.current = false;
      formHeadingRef.current?.focus();
    }
  }, [quote]);

  /** After a 409, the reserve error links to the next free window: follow it here. */
  const onTryWindow = (next: { start: string; end: string }) => {
    focusForm.current = true;
    setFields([]);
    setFormError(null);
    setNotice(
      `Showing the next free window, ${formatDateTime(next.start)} to ${formatDateTime(next.end)}. Get a new quote for it to reserve.`,
    );
  };

  const onSubmit = async (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) {
      return;
    }
    const problems: FieldProblem[] = [];
    const count = Number(draft.gpuCount);
    if (!counts.includes(count)) {
      problems.push({ field: 'gpu_count', detail: 'Choose how many GPUs to rent.' });
    }
    const start = draft.startInstant();
    if (!start) {
      problems.push({ field: 'start', detail: 'Enter the start as a date and time.' });
    }
    const parsedHours = parseHours(draft.hours);
    if (parsedHours === null) {
      problems.push({ field: 'hours', detail: `Enter the hours as a whole number from ${MIN_HOURS} to ${MAX_HOURS}.` });
    }
    setFields(problems);
    setFormError(problems.length > 0 ? `Please correct the highlighted ${problems.length === 1 ? 'field' : 'fields'}.` : null);
    if (problems.length > 0 || !start || parsedHours === null) {
      const first = QUOTE_FIELD_IDS[problems[0]?.field ?? ''];
      if (first) {
        formRef.current?.querySelector<HTMLElement>(`#${first}`)?.focus();
      }
      return;
    }
    setBusy(true);
    try {
      const created = await createQuote({ offer_id: offer.id, gpu_count: count, start, hours: parsedHours });
      focusQuote.current = true;
      setQuote(created);
      setNotice(null);
      replaceParams({ quote: created.id });
    } catch (caught) {
      const problemsFromServer = fieldProblems(caught);
      setFields(problemsFromServer);
      setFormError(
        caught instanceof ApiError && caught.status === 403
          ? `The quote was refused: ${caught.message} Reload the page and try again.`
          : errorText(caught, 'Could not get a quote.'),
      );
    } finally {
      setBusy(false);
    }
  };

  const generalFieldErrors = fields.filter((field) => !QUOTE_FIELD_IDS[field.field]);

  return (
    <>
      <form
        id="quote-form"
        ref={formRef}
        class="form panel quote-form"
        noValidate
        aria-labelledby="quote-form-heading"
        onSubmit={(event) => void onSubmit(event)}
      >
        <h2 id="quote-form-heading" ref={formHeadingRef} tabIndex={-1}>
          Get a quote
        </h2>
        {formError && (
          <div id="quote-form-error" class="alert alert--error" role="alert">
            <p>{formError}</p>
            {generalFieldErrors.length > 0 && (
              <ul class="field-errors">
                {generalFieldErrors.map((field, index) => (
                  <li key={index}>{field.detail}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {notice && (
          <p id="quote-notice" class="notice" role="status">
            {notice}
          </p>
        )}
        <Field
          id="quote-gpu-count"
          label="GPUs"
          hint={
            counts.length === 0
              ? 'No GPUs are free for this whole window. Try another start or fewer hours; the availability below shows free hours.'
              : undefined
          }
          error={errorsFor(fields, 'gpu_count')}
        >
          {(control) => (
            <select
              {...control}
              name="gpu_count"
              value={draft.gpuCount}
              disabled={counts.length === 0}
              onChange={(event) => draft.setGpuCount(event.currentTarget.value)}
            >
              {counts.map((count) => (
                <option key={count} value={String(count)}>
                  {gpusLabel(count)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="quote-start" label="Start" hint="Your local time." error={errorsFor(fields, 'start')}>
          {(control) => (
            <input
              {...control}
              type="datetime-local"
              name="start"
              step={60}
              value={draft.startLocal}
              onInput={(event) => draft.editStart(event.currentTarget.value)}
              onChange={(event) => draft.commitStart(event.currentTarget.value)}
            />
          )}
        </Field>
        <NumberField
          id="quote-hours"
          label="Hours"
          name="hours"
          min={MIN_HOURS}
          max={MAX_HOURS}
          required
          value={draft.hours}
          hint={hoursHint(offer, Number(draft.gpuCount) || 1)}
          error={errorsFor(fields, 'hours')}
          onInput={draft.setHours}
          onChange={draft.commitHours}
        />
        <button
          id="get-quote"
          type="submit"
          class="btn btn--primary"
          disabled={counts.length === 0}
          aria-disabled={busy ? 'true' : undefined}
          aria-busy={busy ? 'true' : undefined}
        >
          {busy ? 'Getting a quote…' : 'Get quote'}
        </button>
      </form>
      {quote && (
        <QuotePanel quote={quote} headingRef={quoteHeadingRef} onTryWindow={onTryWindow} images={offer.images} />
      )}
    </>
  );
}
