import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { Console } from './Console';
import './admin.css';

// The operator console's own entry (admin.html): nothing here is imported by the member app.
const root = document.getElementById('admin-root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter>
        <Console />
      </BrowserRouter>
    </StrictMode>,
  );
