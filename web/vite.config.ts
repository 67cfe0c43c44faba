import { fileURLToPath } from 'node:url';
import { vitePlugin as remix } from '@remix-run/dev';
import { defineConfig } from 'vite';

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: false;
  }
}

export default defineConfig({
  plugins: [
    remix({
      ignoredRouteFiles: ['**/*.test.*', '**/*.css'],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
  // `~/…` is `app/…` (tsconfig.json `paths` says the same to TypeScript, jest.config.js to jest).
  resolve: { alias: { '~': fileURLToPath(new URL('./app', import.meta.url)) } },
  build: {
    sourcemap: false,
    rollupOptions: {
      // Resource routes (JSON and upload endpoints) have no browser code: their empty chunks are expected.
      onwarn(warning, warn) {
        if (warning.code !== 'EMPTY_BUNDLE') warn(warning);
      },
    },
  },
  // The kit is a workspace link, which Vite would bundle (and fail to, as it is CommonJS): the server
  // build requires it at run time from node_modules instead, like any other dependency.
  ssr: { external: ['@trove/kit'] },
  server: { port: 3000 },
});
