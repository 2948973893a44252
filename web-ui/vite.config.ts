import { defineConfig, type Plugin } from 'vite';
import preact from '@preact/preset-vite';

// The Java gateway (Spring Boot) listens on :8080 during development.
const gateway = 'http://localhost:8080';

// Mirror the gateway's mapping of /docs to docs.html in `vite` and `vite preview`.
// (Typed structurally so the config type-checks without @types/node.)
const docsRewrite = (req: { url?: string }, _res: unknown, next: () => void): void => {
  if (req.url === '/docs' || req.url?.startsWith('/docs?')) {
    req.url = `/docs.html${req.url.slice('/docs'.length)}`;
  }
  next();
};

function docsRoute(): Plugin {
  return {
    name: 'gpu-rental:docs-route',
    configureServer(server) {
      server.middlewares.use(docsRewrite);
    },
    configurePreviewServer(server) {
      server.middlewares.use(docsRewrite);
    },
  };
}

export default defineConfig({
  base: '/',
  plugins: [preact(), docsRoute()],
  server: {
    proxy: {
      '/api': gateway,
      '/auth': gateway,
      '/health': gateway,
      '/sandbox': gateway,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // Every browser we target supports <link rel="modulepreload">; skip the polyfill chunk.
    modulePreload: { polyfill: false },
    // Swagger UI ships as one ~1.5 MB pre-bundled file that only docs.html
    // loads; the app's own bundle stays well under 100 kB.
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      input: {
        index: 'index.html',
        docs: 'docs.html',
      },
    },
  },
});
