/** The reserve form's image: a template (cached on this host or not) or a custom image, and the ports to publish. */
import { useEffect, useState } from 'preact/hooks';
import { Field } from '../../fields';
import { listImages, type ImageList } from '../../images';
import type { OfferImage } from '../../offers';
import { formatSeconds } from '../../time-to-ready';

export interface ImageChoice {
  /** A template id, or CUSTOM. */
  template: string;
  custom: string;
  ports: string;
}

export const CUSTOM = 'custom';

/** The request's image and ports, from the choice (ports null when they do not parse). */
export function imageRequest(choice: ImageChoice | null): { image?: string; ports?: number[] } | null {
  if (!choice) {
    return {};
  }
  const ports = choice.ports.split(/[\s,]+/).map((p) => p.trim()).filter(Boolean);
  if (!ports.every((p) => /^\d{1,5}$/.test(p))) {
    return null;
  }
  const image = choice.template === CUSTOM ? choice.custom.trim() : choice.template;
  return { ...(image ? { image } : {}), ports: ports.map(Number) };
}

/** The option's words, short enough for the narrow select (the hint says more): the name, or that this host cannot run it. */
function optionLabel(name: string, here: OfferImage | undefined): string {
  return here?.available === false ? `${name} (not on this host)` : name;
}

/** What the renter should know of the template on this host: cached or downloaded first, and how fast it was ready. */
export function readiness(here: OfferImage | undefined): string {
  if (!here || here.available === false) {
    return '';
  }
  const figure = here.cached ? here.time_to_ready?.cached : here.time_to_ready?.uncached;
  const measured = figure
    ? ` Ready in ~${formatSeconds(figure.p50_seconds)} (p95 ${formatSeconds(figure.p95_seconds)}) on this host.`
    : '';
  return here.cached
    ? `Cached on this host: starts without a download.${measured || ' Ready in seconds.'}`
    : `Not cached on this host: downloaded before your instance starts.${measured}`;
}

export function ImagePicker({ choice, onChange, onHost, error }: {
  choice: ImageChoice | null;
  onChange: (choice: ImageChoice) => void;
  /** The offer's templates on its host: cached, runnable, ready times (absent: nothing known). */
  onHost: OfferImage[];
  error?: string | null;
}) {
  const here = (id: string) => onHost.find((image) => image.id === id);
  const runnable = (id: string) => here(id)?.available !== false;
  const [list, setList] = useState<ImageList | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    listImages(abort.signal).then((images) => {
      setList(images);
      // the default, unless this host cannot run it: then the first template it can
      const first =
        images.data.find((t) => t.is_default && runnable(t.id)) ?? images.data.find((t) => runnable(t.id));
      if (!choice && first) {
        onChange({ template: first.id, custom: '', ports: first.default_ports.join(', ') });
      }
    }).catch(() => setList({ data: [], allowed_registries: [] }));
    return () => abort.abort();
  }, []);

  if (!list || (list.data.length === 0 && list.allowed_registries.length === 0)) {
    return null;
  }
  const current = choice ?? { template: '', custom: '', ports: '' };
  const pick = (template: string) => {
    const t = list.data.find((candidate) => candidate.id === template);
    onChange({ template, custom: current.custom, ports: t ? t.default_ports.join(', ') : current.ports });
  };
  const selected = list.data.find((t) => t.id === current.template);
  const unavailable = onHost.filter((image) => image.available === false);
  return (
    <fieldset class="image-picker">
      <legend>Image</legend>
      <Field
        id="reserve-image"
        label="Runs"
        hint={[selected?.description, readiness(here(current.template))].filter(Boolean).join(' ') || undefined}
        error={error}
      >
        {(control) => (
          <select {...control} name="image" value={current.template} onChange={(e) => pick(e.currentTarget.value)}>
            {list.data.map((t) => (
              <option key={t.id} value={t.id} disabled={!runnable(t.id)}>
                {optionLabel(t.name, here(t.id))}
              </option>
            ))}
            {list.allowed_registries.length > 0 && <option value={CUSTOM}>Your own image…</option>}
          </select>
        )}
      </Field>
      {unavailable.length > 0 && (
        <p id="reserve-image-unavailable" class="hint">
          Not on this host: {unavailable.map((image) => image.unavailable_reason).join(' ')}
        </p>
      )}
      {current.template === CUSTOM && (
        <Field id="reserve-custom-image" label="Image reference"
          hint={`From ${list.allowed_registries.join(', ')}; it needs /bin/sh. SSH is added from outside the image.`}>
          {(control) => (
            <input {...control} type="text" spellcheck={false} placeholder={`${list.allowed_registries[0]}/name:tag`}
              value={current.custom} onInput={(e) => onChange({ ...current, custom: e.currentTarget.value })} />
          )}
        </Field>
      )}
      <Field id="reserve-ports" label="Ports to publish" hint="Besides SSH; e.g. 8888 for Jupyter. Up to 8, not 22.">
        {(control) => (
          <input {...control} type="text" inputMode="numeric" value={current.ports}
            onInput={(e) => onChange({ ...current, ports: e.currentTarget.value })} />
        )}
      </Field>
    </fieldset>
  );
}
