import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * For slow networks, everything home's first screen runs (React, the router, the layout, home and what they
 * share) is one chunk, `app`, so on HTTP/1.1's six connections the HTML's requests leave in one wave.
 * The entry, `first` (src/main.tsx and src/firstScreen, which the app shares), stays outside it: it
 * is tiny and starts home's first requests before the app is in. Six requests in all with the CSS,
 * the bundler's runtime and nginx's two preloaded answers; a seventh would wait a round trip.
 */
const APP_CHUNK =
  /node_modules[\\/](?:react|react-dom|scheduler|react-router|react-router-dom)[\\/]|frontend[\\/]src[\\/](?:app|components|hooks|features[\\/](?:api|access|age-gate|home))[\\/]/;

const FIRST_CHUNK = /frontend[\\/]src[\\/](?:main\.tsx$|firstScreen[\\/])|vite[\\/]preload-helper|rolldown[\\/]runtime/;

/** The entry imports `app` dynamically (so it runs first); index.html still asks for it, and what it imports, at once. */
function preloadAppChunk(): Plugin {
  return {
    name: 'preload-app-chunk',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const app = Object.values(context.bundle ?? {}).find((output) => output.type === 'chunk' && output.name === 'app');
        if (!app || app.type !== 'chunk') throw new Error('no app chunk: see APP_CHUNK in vite.config.ts');
        return [app.fileName, ...app.imports]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
            injectTo: 'head' as const,
          }));
      },
    },
  };
}

/**
 * The operator console (admin.html, src/admin) is built by a second pass, `vite build
 * --mode admin`, into the same dist after the member build. Its own React and no chunk shared with
 * the member app: the member chunks above stay exactly as they are, with no console code in them.
 */
const adminConfig = defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    modulePreload: { polyfill: false },
    rolldownOptions: { input: fileURLToPath(new URL('admin.html', import.meta.url)) },
  },
});

const memberConfig = defineConfig({
  plugins: [react(), preloadAppChunk()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Shared code stays out of the entry so every route but home is fetched on demand.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'first', test: FIRST_CHUNK, priority: 2 },
            { name: 'app', test: APP_CHUNK, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3001',
      '/members': 'http://127.0.0.1:3002',
    },
  },
});

export default defineConfig(({ mode }) => (mode === 'admin' ? adminConfig : memberConfig));
