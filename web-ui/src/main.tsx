import { render } from 'preact';
import { App } from './app';
import { startSession } from './session';
import './styles.css';

// Ask who is signed in (only when the hint cookie says so) before the first render.
startSession();

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
