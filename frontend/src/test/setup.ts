import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetHistoryMemory } from '../hooks/historyMemory';

// findBy*/waitFor give up after 1 s by default; a shared two-core machine under load needs longer.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  if (typeof window === 'undefined') return;
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  // Listings remember their pages per history entry in memory too; each test is a new tab.
  resetHistoryMemory();
});
