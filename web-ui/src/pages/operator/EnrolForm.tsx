/** "Enrol a host": its name, site (an existing one, or a new one made on the way) and public address. */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Field } from '../../fields';
import { createHost, createSite, listSites, type EnrolledHost, type Site } from '../../operator-hosts';
import type { Me } from '../../session';

const NEW_SITE = '__new__';

export function EnrolForm({ me, onEnrolled }: { me: Me; onEnrolled: (host: EnrolledHost) => void }) {
  const [sites, setSites] = useState<Site[]>([]);
  const [siteId, setSiteId] = useState(NEW_SITE);
  const [site, setSite] = useState({ name: '', region: '', country: '' });
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    listSites(controller.signal)
      .then((page) => {
        setSites(page.data);
        if (page.data[0]) {
          setSiteId(page.data[0].id);
        }
      })
      .catch(() => {
        // without the list, a new site can still be made
      });
    return () => controller.abort();
  }, []);

  const onSubmit = async (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) {
      return;
    }
    setBusy(true);
    setError(null);
    try {
      let chosen = siteId;
      if (chosen === NEW_SITE) {
        const made = await createSite(me, { ...site, name: site.name.trim() });
        setSites((current) => [...current, made]);
        setSiteId(made.id);
        chosen = made.id;
      }
      const trimmedAddress = address.trim();
      const host = await createHost(me, {
        name: name.trim(),
        site_id: chosen,
        ...(trimmedAddress ? { public_address: trimmedAddress } : {}),
      });
      setName('');
      setAddress('');
      onEnrolled(host);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form id="enrol-form" class="panel enrol-form" onSubmit={(event) => void onSubmit(event)} noValidate>
      <h3>Enrol a host</h3>
      {error && (
        <p id="enrol-error" class="problem" role="alert">
          {error}
        </p>
      )}
      <Field id="host-name" label="Host name" hint="Letters, digits, dots, dashes, e.g. fra-h100-02">
        {(control) => (
          <input {...control} type="text" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        )}
      </Field>
      <Field id="host-site" label="Site">
        {(control) => (
          <select {...control} value={siteId} onChange={(e) => setSiteId(e.currentTarget.value)}>
            {sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.region})
              </option>
            ))}
            <option value={NEW_SITE}>New site…</option>
          </select>
        )}
      </Field>
      {siteId === NEW_SITE && (
        <fieldset class="new-site">
          <legend>New site</legend>
          <Field id="site-name" label="Site name">
            {(control) => (
              <input {...control} type="text" value={site.name}
                onInput={(e) => setSite({ ...site, name: e.currentTarget.value })} />
            )}
          </Field>
          <Field id="site-region" label="Region" hint="e.g. eu-central">
            {(control) => (
              <input {...control} type="text" value={site.region}
                onInput={(e) => setSite({ ...site, region: e.currentTarget.value })} />
            )}
          </Field>
          <Field id="site-country" label="Country" hint="Two letters, e.g. DE">
            {(control) => (
              <input {...control} type="text" maxLength={2} value={site.country}
                onInput={(e) => setSite({ ...site, country: e.currentTarget.value })} />
            )}
          </Field>
        </fieldset>
      )}
      <Field id="host-address" label="Public address" hint="Where renters reach the host by SSH (optional)">
        {(control) => (
          <input {...control} type="text" value={address} onInput={(e) => setAddress(e.currentTarget.value)} />
        )}
      </Field>
      <button id="enrol-submit" type="submit" class="btn btn--primary" disabled={busy} aria-busy={busy ? 'true' : undefined}>
        Create host and enrolment token
      </button>
    </form>
  );
}
