/** The reserve form's image: a template (cached on this host or not) or a custom image, and the ports to publish. */
import { useEffect, useState } from 'preact/hooks';
import { Field } from '../../fields';
import { listImages, type ImageList } from '../../images';

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

export function ImagePicker({ choice, onChange, cached, error }: {
  choice: ImageChoice | null;
  onChange: (choice: ImageChoice) => void;
  /** Template ids this host has cached. */
  cached: string[];
  error?: string | null;
}) {
  const [list, setList] = useState<ImageList | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    listImages(abort.signal).then((images) => {
      setList(images);
      const first = images.data.find((t) => t.is_default) ?? images.data[0];
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
  return (
    <fieldset class="image-picker">
      <legend>Image</legend>
      <Field id="reserve-image" label="Runs" hint={selected?.description} error={error}>
        {(control) => (
          <select {...control} name="image" value={current.template} onChange={(e) => pick(e.currentTarget.value)}>
            {list.data.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}{cached.includes(t.id) ? ' — cached here, starts in seconds' : ''}
              </option>
            ))}
            {list.allowed_registries.length > 0 && <option value={CUSTOM}>Your own image…</option>}
          </select>
        )}
      </Field>
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
