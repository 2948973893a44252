import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorsFor, Field, fieldControlProps, NumberField } from '../../fields';
import { EMPTY_FILTERS, SORT_OPTIONS, type CatalogFilters } from '../../catalog-filters';
import { formatGb, MAX_HOURS, MIN_HOURS, type FieldProblem, type GpuModel } from '../../offers';
import { draftFrom, FIELD_IDS, validate, type Draft } from './filter-draft';

interface FilterPanelProps {
  filters: CatalogFilters;
  models: GpuModel[] | null;
  modelsFailed: boolean;
  regions: string[];
  serverFields: FieldProblem[];
  busy: boolean;
  onApply: (filters: CatalogFilters) => void;
}

/** The filter form: edits a draft of the URL's filters and applies it when valid. */
export function FilterPanel({ filters, models, modelsFailed, regions, serverFields, busy, onApply }: FilterPanelProps) {
  const [draft, setDraft] = useState<Draft>(() => draftFrom(filters));
  const [clientFields, setClientFields] = useState<FieldProblem[]>([]);
  const formRef = useRef<HTMLFormElement>(null);

  // Back/forward or a shared link: the form shows what the URL says.
  useEffect(() => {
    setDraft(draftFrom(filters));
    setClientFields([]);
  }, [filters]);

  const fields = clientFields.length > 0 ? clientFields : serverFields;
  const fieldError = (name: string) => errorsFor(fields, name);

  const update = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
  };

  const onSubmit = (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(draft);
    setClientFields(result.fields);
    if (!result.filters) {
      const first = FIELD_IDS[result.fields[0]?.field ?? ''];
      if (first) {
        formRef.current?.querySelector<HTMLElement>(`#${first}`)?.focus();
      }
      return;
    }
    onApply(result.filters);
  };

  const reset = () => {
    setClientFields([]);
    onApply(EMPTY_FILTERS);
  };

  const modelOptions = models ?? [];
  const knownModel = draft.gpu_model === '' || modelOptions.some((model) => model.name === draft.gpu_model);
  const unavailableError = fieldError('include_unavailable');

  return (
    <form
      id="catalog-filters"
      ref={formRef}
      class="form panel catalog-filters"
      noValidate
      aria-labelledby="catalog-filters-heading"
      onSubmit={onSubmit}
    >
      <h2 id="catalog-filters-heading">Filters</h2>
      {clientFields.length > 0 && (
        <div id="catalog-filters-error" class="alert alert--error" role="alert">
          <p>Please correct the highlighted {clientFields.length === 1 ? 'field' : 'fields'}.</p>
        </div>
      )}
      <Field
        id="filter-gpu-model"
        label="GPU model"
        hint={modelsFailed ? 'The model list could not be loaded.' : undefined}
        error={fieldError('gpu_model')}
      >
        {(control) => (
          <select {...control} name="gpu_model" value={draft.gpu_model} onChange={(event) => update('gpu_model', event.currentTarget.value)}>
            <option value="">Any</option>
            {!knownModel && <option value={draft.gpu_model}>{draft.gpu_model}</option>}
            {modelOptions.map((model) => (
              <option key={model.name} value={model.name}>
                {model.name} ({formatGb(model.vram_gb)})
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="field-row">
        <NumberField
          id="filter-min-vram"
          label="Min VRAM per GPU (GB)"
          name="min_vram_gb"
          min={1}
          value={draft.min_vram_gb}
          error={fieldError('min_vram_gb')}
          onInput={(value) => update('min_vram_gb', value)}
        />
        <NumberField
          id="filter-min-gpus"
          label="Min GPUs"
          name="min_gpus"
          min={1}
          value={draft.min_gpus}
          error={fieldError('min_gpus')}
          onInput={(value) => update('min_gpus', value)}
        />
      </div>
      <Field id="filter-region" label="Region" error={fieldError('region')}>
        {(control) => (
          <>
            <input
              {...control}
              type="text"
              name="region"
              list="filter-region-options"
              autoComplete="off"
              spellcheck={false}
              placeholder="Any, e.g. us-east"
              value={draft.region}
              onInput={(event) => update('region', event.currentTarget.value)}
            />
            <datalist id="filter-region-options">
              {regions.map((region) => (
                <option key={region} value={region} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      <Field id="filter-start" label="Start" hint="Your local time. Leave empty to start now." error={fieldError('start')}>
        {(control) => (
          <input
            {...control}
            type="datetime-local"
            name="start"
            step={60}
            value={draft.startLocal}
            onInput={(event) => update('startLocal', event.currentTarget.value)}
            onChange={(event) => update('startLocal', event.currentTarget.value)}
          />
        )}
      </Field>
      <NumberField
        id="filter-hours"
        label="Hours"
        name="hours"
        min={MIN_HOURS}
        max={MAX_HOURS}
        required
        value={draft.hours}
        hint={`${MIN_HOURS} to ${MAX_HOURS} (${MAX_HOURS / 24} days).`}
        error={fieldError('hours')}
        onInput={(value) => update('hours', value)}
      />
      <Field id="filter-sort" label="Sort by" error={fieldError('sort')}>
        {(control) => (
          <select {...control} name="sort" value={draft.sort || 'price'} onChange={(event) => update('sort', event.currentTarget.value)}>
            {SORT_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="field checkbox">
        <input
          {...fieldControlProps('filter-include-unavailable', { error: unavailableError })}
          type="checkbox"
          name="include_unavailable"
          checked={draft.include_unavailable}
          onChange={(event) => update('include_unavailable', event.currentTarget.checked)}
        />
        <label for="filter-include-unavailable">Show unavailable</label>
        {unavailableError && (
          <p id="filter-include-unavailable-error" class="field-error">
            {unavailableError}
          </p>
        )}
      </div>
      <div class="form-actions">
        <button id="apply-filters" type="submit" class="btn btn--primary" aria-busy={busy ? 'true' : undefined}>
          Apply filters
        </button>
        <button id="reset-filters" type="button" class="btn" onClick={reset}>
          Reset
        </button>
      </div>
    </form>
  );
}
