import { defineConfig } from 'vite';

// The page is served by outpost-server from web/dist at "/", offline: everything is bundled,
// and asset URLs are relative so the page also works behind a path prefix.
export default defineConfig({
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Piece images and fonts stay inside the CSS bundle (data URIs): no extra requests, no CDN.
    assetsInlineLimit: 16384,
    chunkSizeWarningLimit: 600,
  },
  server: {
    // `npm run dev` forwards the API to a locally running outpost-server.
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', ws: true },
    },
  },
});
