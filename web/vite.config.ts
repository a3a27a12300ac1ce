// The front end is built once, at install (root `prepare`), into dist/, which the service serves
// itself (service/src/http/routes/web-pages.ts): nothing is fetched from a CDN at run time.
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [preact()],
  base: '/',
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2048 },
  // The Stellar SDK reads `global` in places; in the browser that is globalThis.
  define: { global: 'globalThis' },
});
