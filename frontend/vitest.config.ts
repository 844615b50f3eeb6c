import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Node 25 and later have a localStorage of their own on globalThis (empty without
// --localstorage-file), which shadows jsdom's: tests would see no storage at all. Node 20 refuses the flag.
const nodeMajor = Number(process.versions.node.split('.')[0]);
const execArgv = nodeMajor >= 25 ? ['--no-experimental-webstorage'] : [];

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'frontend',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    execArgv,
    // Role queries over full pages are slow in jsdom on a shared 2-core machine.
    testTimeout: 20_000,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
