import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';
import { pureContractSchemas } from './build/pure-contract-schemas.ts';

// antd's rc-component packages declare no `sideEffects` in their package.json, although their
// modules only define components; without this, e.g. antd's form context pulls the whole form
// library (rc-form, async-validator) into the first screen although no form is shown there.
const SIDE_EFFECT_FREE_PACKAGES = /[\\/]node_modules[\\/]@rc-component[\\/]/;

const apiProxyTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:8000';

export default defineConfig({
  plugins: [react(), pureContractSchemas(), precompress()],
  // The strategy page's live connection (/ws/...) goes to the same server as the API.
  server: {
    proxy: {
      '^/api/': { target: apiProxyTarget, changeOrigin: true },
      // Live updates (e.g. /ws/announcements) are websockets on the page's own origin.
      '^/ws/': { target: apiProxyTarget, changeOrigin: true, ws: true },
    },
  },
  preview: {
    proxy: {
      '^/api/': { target: apiProxyTarget, changeOrigin: true },
      '^/ws/': { target: apiProxyTarget, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    // Every browser the app supports preloads modules itself; the polyfill only cost bytes.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The contracts package builds zod schemas at module level; the web app only imports its
      // types and constants, so its modules and schema builders are treated as side-effect free
      // (see build/pure-contract-schemas.ts) and zod drops out of the bundle. No
      // `manualPureFunctions` by name: it matches every function of that name in every package,
      // and `['z']` also dropped lightweight-charts' minified canvas clear `z(…)`, so the candle
      // chart never cleared and drew each repaint over the last (issue 8, item 11).
      treeshake: {
        moduleSideEffects: (id) =>
          !id.includes('/packages/contracts/') && !SIDE_EFFECT_FREE_PACKAGES.test(id),
      },
      output: {
        // Stable libraries in long-cached chunks of their own.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 30,
            },
            { name: 'router', test: /node_modules[\\/](react-router)[\\/]/, priority: 25 },
            // dayjs is not here: only the date picker (webhook logs) uses it, with its plugins.
            {
              name: 'vendor',
              test: /node_modules[\\/](i18next|react-i18next|@tanstack)[\\/]/,
              priority: 20,
            },
            // The chart library is only imported by the dashboard's lazy chart modules.
            {
              name: 'charts',
              test: /node_modules[\\/](lightweight-charts|fancy-canvas)[\\/]/,
              priority: 28,
            },
            // antd is left to automatic splitting: components used only by lazy pages load with
            // those pages instead of with the first screen.
          ],
        },
      },
    },
  },
});
