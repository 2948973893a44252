import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { errorsFor, Field } from '../../fields';
import type { FieldProblem } from '../../offers';
import {
  architectureLine,
  CUSTOM_MODEL,
  parameterHint,
  shownParameters,
  type ChosenWorkload,
  type WorkloadCatalog,
  type WorkloadParameter,
  type WorkloadPreset,
} from '../../workloads';

interface WorkloadPanelProps {
  catalog: WorkloadCatalog | null;
  failed: boolean;
  chosen: ChosenWorkload | null;
  serverFields: FieldProblem[];
  busy: boolean;
  onApply: (workload: ChosenWorkload | null) => void;
}

/** Shortcuts for the most asked-for workloads: a preset with a named model. */
const QUICK_PICKS: readonly { label: string; workload: ChosenWorkload }[] = [
  { label: 'Serve Llama 3.1 8B', workload: { id: 'llm-inference', params: { model: 'llama-3.1-8b' } } },
  { label: 'Serve Llama 3.1 70B', workload: { id: 'llm-inference', params: { model: 'llama-3.1-70b' } } },
  { label: 'QLoRA-tune a 13B', workload: { id: 'llm-finetune', params: { params_b: '13', method: 'qlora' } } },
  { label: 'FLUX images', workload: { id: 'image-generation', params: { model: 'flux.1-dev' } } },
];

function defaults(preset: WorkloadPreset | undefined, given: Record<string, string>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const parameter of preset?.parameters ?? []) {
    values[parameter.name] = given[parameter.name] ?? (parameter.default === null ? '' : String(parameter.default));
  }
  if (given.params_b && !given.model) {
    values.model = CUSTOM_MODEL;
  }
  return values;
}

/** "What do you want to run?": a preset (or a named model) and its parameters; the offers below then fit it. */
export function WorkloadPanel({ catalog, failed, chosen, serverFields, busy, onApply }: WorkloadPanelProps) {
  const presets = catalog?.data ?? [];
  const [presetId, setPresetId] = useState(chosen?.id ?? '');
  const [values, setValues] = useState<Record<string, string>>({});
  const preset = presets.find((candidate) => candidate.id === presetId);

  // the URL (a shared link, back/forward) decides what the form shows
  useEffect(() => {
    setPresetId(chosen?.id ?? '');
    setValues(defaults(presets.find((candidate) => candidate.id === chosen?.id), chosen?.params ?? {}));
  }, [chosen, catalog]);

  const choosePreset = (id: string) => {
    setPresetId(id);
    setValues(defaults(presets.find((candidate) => candidate.id === id), {}));
  };

  const submit = (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!preset) {
      onApply(null);
      return;
    }
    const params: Record<string, string> = {};
    for (const parameter of shownParameters(preset, values)) {
      const value = (values[parameter.name] ?? '').trim();
      if (value !== '' && !(parameter.name === 'model' && value === CUSTOM_MODEL)) {
        params[parameter.name] = value;
      }
    }
    onApply({ id: preset.id, params });
  };

  const control = (parameter: WorkloadParameter) => {
    const id = `workload-param-${parameter.name}`;
    const set = (value: string) => setValues((current) => ({ ...current, [parameter.name]: value }));
    const label = parameter.name === 'params_b' ? 'Size (billion parameters)' : labelOf(parameter);
    const named = parameter.name === 'model' && (presetId === 'llm-inference' || presetId === 'llm-finetune');
    const architecture = named ? catalog?.architectures.find((model) => model.id === values.model) : undefined;
    const hint = architecture
      ? architectureLine(architecture)
      : named
        ? 'Give its size below; a usual dense shape is assumed.'
        : parameterHint(parameter);
    return (
      <Field key={id} id={id} label={label} hint={hint} error={errorsFor(serverFields, parameter.name)}>
        {(props) =>
          parameter.values ? (
            <select {...props} name={parameter.name} value={values[parameter.name] ?? ''}
              onChange={(event) => set(event.currentTarget.value)}>
              {parameter.default === null && <option value="">Default</option>}
              {parameter.values.map((value) => (
                <option key={value} value={value}>
                  {named ? catalog?.architectures.find((model) => model.id === value)?.name ?? value : value}
                </option>
              ))}
              {named && <option value={CUSTOM_MODEL}>Another model, by size</option>}
            </select>
          ) : (
            <input {...props} type="number" name={parameter.name} inputMode="decimal"
              min={parameter.minimum} max={parameter.maximum} step={parameter.type === 'integer' ? 1 : 'any'}
              value={values[parameter.name] ?? ''} onInput={(event) => set(event.currentTarget.value)} />
          )
        }
      </Field>
    );
  };

  return (
    <section id="workload-panel" class="panel workload-panel" aria-labelledby="workload-heading">
      <h2 id="workload-heading">What do you want to run?</h2>
      <p class="muted">
        Pick a workload and we list only the offers that hold it, each at the fewest GPUs that do, with the arithmetic.
      </p>
      <div class="workload-quick" role="group" aria-label="Popular workloads">
        {QUICK_PICKS.map((pick) => (
          <button key={pick.label} type="button" class="btn btn--small" onClick={() => onApply(pick.workload)}>
            {pick.label}
          </button>
        ))}
      </div>
      <form id="workload-form" class="form workload-form" noValidate onSubmit={submit}>
        <Field id="workload-preset" label="Workload" error={errorsFor(serverFields, 'workload')}
          hint={failed ? 'The workloads could not be loaded.' : preset?.summary}>
          {(props) => (
            <select {...props} name="workload" value={presetId} onChange={(event) => choosePreset(event.currentTarget.value)}>
              <option value="">Any: browse by GPU</option>
              {presets.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        {preset && <div class="workload-params">{shownParameters(preset, values).map(control)}</div>}
        <div class="form-actions">
          <button id="workload-apply" type="submit" class="btn btn--primary" aria-busy={busy ? 'true' : undefined}>
            {preset ? 'Show offers that fit' : 'Show all offers'}
          </button>
          {chosen && (
            <button id="workload-clear" type="button" class="btn" onClick={() => onApply(null)}>
              Clear workload
            </button>
          )}
        </div>
        {preset && (
          <details class="workload-formula">
            <summary>How we compute it</summary>
            <p>{preset.formula}</p>
            <ul>
              {preset.sources.map((source) => (
                <li key={source.url + source.title}>
                  <a href={source.url} rel="noopener noreferrer" target="_blank">{source.title}</a>
                </li>
              ))}
            </ul>
          </details>
        )}
      </form>
    </section>
  );
}

const LABELS: Record<string, string> = {
  scene_gb: 'Scene size (GB)',
  dataset_gb: 'Data size (GB)',
  lora_rank: 'LoRA rank',
};

function labelOf(parameter: WorkloadParameter): string {
  if (LABELS[parameter.name]) {
    return LABELS[parameter.name];
  }
  const words = parameter.name.replace(/_/g, ' ');
  const label = words.charAt(0).toUpperCase() + words.slice(1);
  return parameter.unit && parameter.type !== 'string' && parameter.unit !== parameter.name
    ? `${label} (${parameter.unit})`
    : label;
}
