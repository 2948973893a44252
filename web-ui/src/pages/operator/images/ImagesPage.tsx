/** Operator → Images: the templates renters pick (publish, retire) and the registries custom images may come from. */
import type { JSX } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { Field } from '../../../fields';
import { formatDateTime } from '../../../format';
import {
  createTemplate, getImageSettings, listTemplates, parsePorts, putImageSettings, retireTemplate, shortRef,
  type ImageSettings, type ImageTemplate,
} from '../../../images';
import type { Me } from '../../../session';
import './images.css';

function TemplatesTable({ me, templates, onChanged }: { me: Me; templates: ImageTemplate[]; onChanged: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const retire = async (t: ImageTemplate) => {
    setError(null);
    try {
      await retireTemplate(me, t.id);
      onChanged();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div class="table-scroll">
      {error && <p class="problem" role="alert">{error}</p>}
      <table id="image-templates" class="images-table">
        <caption>Templates: hosts keep every live one cached; renters pick one when they reserve</caption>
        <thead>
          <tr>
            <th scope="col">Template</th><th scope="col">Image</th><th scope="col">Ports</th>
            <th scope="col">Needs</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {templates.map((t) => (
            <tr key={t.id} data-image={t.id} class={t.retired_at ? 'retired' : undefined}>
              <th scope="row">
                {t.name}{t.is_default && <span class="badge badge--info"> default</span>}
                <span class="host-id">{t.description}</span>
              </th>
              <td><code title={t.ref}>{shortRef(t.ref)}</code></td>
              <td>{t.default_ports.length ? t.default_ports.join(', ') : <span class="muted">SSH only</span>}</td>
              <td>
                {[t.min_driver_version && `driver ≥ ${t.min_driver_version}`, t.min_cuda_version && `CUDA ≥ ${t.min_cuda_version}`]
                  .filter(Boolean).join(', ') || <span class="muted">—</span>}
              </td>
              <td>{t.retired_at ? <>retired {formatDateTime(t.retired_at)}</> : 'live'}</td>
              <td>
                {!t.retired_at && (
                  <button type="button" class="btn" data-retire={t.id} onClick={() => void retire(t)}>
                    Retire<span class="visually-hidden"> {t.name}</span>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TemplateForm({ me, onCreated }: { me: Me; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [ref, setRef] = useState('');
  const [description, setDescription] = useState('');
  const [ports, setPorts] = useState('');
  const [driver, setDriver] = useState('');
  const [cuda, setCuda] = useState('');
  const [isDefault, setDefault] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const defaultPorts = parsePorts(ports);
    if (defaultPorts === null) {
      setError('Ports are whole numbers, e.g. 8888 or 8888, 6006.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await createTemplate(me, {
        name, ref: ref.trim(), description, default_ports: defaultPorts,
        min_driver_version: driver.trim() || null, min_cuda_version: cuda.trim() || null, is_default: isDefault,
      });
      setName(''); setRef(''); setDescription(''); setPorts(''); setDriver(''); setCuda(''); setDefault(false);
      onCreated();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form id="image-form" class="panel image-form" onSubmit={(event) => void onSubmit(event)} noValidate>
      <h3>Publish a template</h3>
      {error && <p id="image-error" class="problem" role="alert">{error}</p>}
      <Field id="image-name" label="Name">
        {(control) => <input {...control} type="text" required value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <Field id="image-ref" label="Image reference" hint="Pinned by digest: registry/name[:tag]@sha256:<64 hex digits>">
        {(control) => (
          <input {...control} type="text" required spellcheck={false} value={ref} onInput={(e) => setRef(e.currentTarget.value)} />
        )}
      </Field>
      <Field id="image-description" label="What it contains">
        {(control) => <textarea {...control} rows={2} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />}
      </Field>
      <Field id="image-ports" label="Default ports" hint="Published besides SSH, e.g. 8888 for Jupyter">
        {(control) => <input {...control} type="text" inputMode="numeric" value={ports} onInput={(e) => setPorts(e.currentTarget.value)} />}
      </Field>
      <div class="image-form__row">
        <Field id="image-driver" label="Minimum driver">
          {(control) => <input {...control} type="text" value={driver} onInput={(e) => setDriver(e.currentTarget.value)} />}
        </Field>
        <Field id="image-cuda" label="Minimum CUDA">
          {(control) => <input {...control} type="text" value={cuda} onInput={(e) => setCuda(e.currentTarget.value)} />}
        </Field>
      </div>
      <label class="checkbox">
        <input id="image-default" type="checkbox" checked={isDefault} onChange={(e) => setDefault(e.currentTarget.checked)} />
        The default (what a reservation without a choice runs)
      </label>
      <button id="image-submit" type="submit" class="btn btn--primary" disabled={busy} aria-busy={busy ? 'true' : undefined}>
        Publish template
      </button>
    </form>
  );
}

function RegistriesForm({ me, settings, onSaved }: { me: Me; settings: ImageSettings; onSaved: (s: ImageSettings) => void }) {
  const [registries, setRegistries] = useState(settings.allowed_registries.join(', '));
  const [limit, setLimit] = useState(String(settings.image_cache_limit_gb));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const onSubmit = async (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setSaved(false);
    if (!/^\d+$/.test(limit.trim())) {
      setError('The cache limit is a whole number of GB.');
      return;
    }
    try {
      const allowed = registries.split(/[\s,]+/).map((r) => r.trim()).filter(Boolean);
      onSaved(await putImageSettings(me, { allowed_registries: allowed, image_cache_limit_gb: Number(limit.trim()) }));
      setSaved(true);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <form id="registries-form" class="panel image-form" onSubmit={(event) => void onSubmit(event)} noValidate>
      <h3>Custom images</h3>
      {error && <p id="registries-error" class="problem" role="alert">{error}</p>}
      {saved && <p id="registries-saved" role="status">Saved.</p>}
      <Field id="registries" label="Allowed registries" hint="Renters may run their own image from these, e.g. ghcr.io/acme, nvcr.io; empty: templates only">
        {(control) => <input {...control} type="text" spellcheck={false} value={registries} onInput={(e) => setRegistries(e.currentTarget.value)} />}
      </Field>
      <Field id="cache-limit" label="Image cache per host (GB)" hint="Hosts evict the least recently used images beyond it; never one in use">
        {(control) => <input {...control} type="text" inputMode="numeric" value={limit} onInput={(e) => setLimit(e.currentTarget.value)} />}
      </Field>
      <button id="registries-submit" type="submit" class="btn btn--primary">Save</button>
    </form>
  );
}

export function ImagesPage({ me }: { me: Me }) {
  const [templates, setTemplates] = useState<ImageTemplate[] | null>(null);
  const [settings, setSettings] = useState<ImageSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    const abort = new AbortController();
    Promise.all([listTemplates(abort.signal), getImageSettings(abort.signal)])
      .then(([list, s]) => { setTemplates(list.data); setSettings(s); })
      .catch((e) => { if (!abort.signal.aborted) setError(e instanceof Error ? e.message : String(e)); });
    return () => abort.abort();
  }, []);
  useEffect(load, [load]);

  return (
    <section class="images-page" aria-labelledby="images-title">
      <h2 id="images-title">Images</h2>
      <p class="muted">
        Every instance is a container of the image its renter picks. Templates are pinned by digest so a host runs
        exactly the image published; hosts pre-pull every live template so a start needs no download.
      </p>
      {error && <p class="problem" role="alert">{error}</p>}
      {templates === null ? <p aria-busy="true">Loading…</p> : <TemplatesTable me={me} templates={templates} onChanged={load} />}
      <div class="images-forms">
        <TemplateForm me={me} onCreated={load} />
        {settings && <RegistriesForm me={me} settings={settings} onSaved={setSettings} />}
      </div>
    </section>
  );
}
