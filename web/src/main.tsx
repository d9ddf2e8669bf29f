import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import App from './App.js';
import { readConfig } from './config.js';
import { slugFromPath } from './visitor.js';
import './index.css';

const config = readConfig();
if (config.sentryDsn) void import('./sentry.js').then((m) => m.initSentry(config.sentryDsn));
const app = <App config={config} slug={slugFromPath(location.pathname)} />;
createRoot(document.getElementById('root')!).render(<StrictMode>{app}</StrictMode>);
