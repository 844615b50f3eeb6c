import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['db', 'bff', 'media-service', 'frontend', 'tests'],
  },
});
