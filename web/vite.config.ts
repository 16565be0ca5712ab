import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * One Vite project, one build per app (`vite build --mode dashboard`, `--mode admin`):
 * each app is served under its own path (/dashboard/, /admin/) with its own bundle, and both
 * import the same src/shared. See docs/architecture.md, "The web apps".
 */
const APPS = { dashboard: '/dashboard/', admin: '/admin/' } as const;

export default defineConfig(({ mode }) => {
  const app = (mode in APPS ? mode : 'dashboard') as keyof typeof APPS;
  return {
    root: fileURLToPath(new URL(`./apps/${app}`, import.meta.url)),
    base: APPS[app],
    plugins: [react()],
    build: {
      outDir: fileURLToPath(new URL(`./dist/${app}`, import.meta.url)),
      emptyOutDir: true,
      assetsDir: 'assets',
      chunkSizeWarningLimit: 800,
      // No inline script or data: modules: the CSP allows scripts from 'self' only.
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
    },
    server: { proxy: { '/dashboard/v1': 'http://127.0.0.1:3000', '/admin/v1': 'http://127.0.0.1:3000' } },
  };
});
