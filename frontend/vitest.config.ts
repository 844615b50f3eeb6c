import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'frontend',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
    // Role queries over full pages are slow in jsdom on a shared 2-core machine.
    testTimeout: 20_000,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
