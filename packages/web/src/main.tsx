import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadLanguage, readStoredLanguage } from './i18n';
import './styles.css';
import { App } from './app/App';

const container = document.getElementById('root');
if (!container) throw new Error('#root missing from index.html');

const render = () =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
// A visitor who chose English earlier gets its texts before the first render, not after (and
// the default language's, which ship with this file, if they cannot be fetched).
loadLanguage(readStoredLanguage()).then(render, render);
