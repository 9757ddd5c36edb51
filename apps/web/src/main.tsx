import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import './styles/base.css';
import './styles/layout.css';
import './styles/nav.css';
import './styles/components.css';
import './styles/tables.css';
import './styles/widgets.css';
import './styles/sales.css';
import './styles/money.css';
import './styles/alarms.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
