import { render } from 'preact';
// The shared stylesheets come first in the bundle, so the pages' own styles (imported by the
// components below) win over them where both set the same thing.
import './styles/base.css';
import './styles/buttons.css';
import './styles/messages.css';
import './styles/panels.css';
import './styles/tables.css';
import './styles/forms.css';
import { App } from './app';
import { startSession } from './session';

// Ask who is signed in (only when the hint cookie says so) before the first render.
startSession();

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
