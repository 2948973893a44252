/** `/operator/…`: the operator console; its sections are listed in {@link OPERATOR_SECTIONS}. */
import { SignedInPage } from '../../signed-in';
import { OPERATOR_SECTIONS, operatorSection } from './sections';
import './operator.css';

export function OperatorPage({ path }: { path: string }) {
  const found = operatorSection(path);
  return (
    <SignedInPage
      title="Operator"
      loadingText="Checking your sign-in…"
      signInText="Sign in as an operator to manage hosts."
      returnTo={path === '/operator' ? '/operator/hosts' : path}
      idPrefix="operator"
    >
      {(me) =>
        me.roles.includes('operator') && found ? (
          <>
            <h1>Operator</h1>
            <nav aria-label="Operator" class="sub-nav">
              {OPERATOR_SECTIONS.map((section) => (
                <a
                  key={section.slug}
                  href={`/operator/${section.slug}`}
                  aria-current={section === found.section ? 'page' : undefined}
                >
                  {section.label}
                </a>
              ))}
            </nav>
            {found.section.render(me, found.rest)}
          </>
        ) : (
          <>
            <h1>Operator</h1>
            <p id="operator-only" class="lead">
              These tools are for operators of the GPU hosts.
            </p>
          </>
        )
      }
    </SignedInPage>
  );
}
