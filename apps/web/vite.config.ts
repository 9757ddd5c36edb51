import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// In development the API (with Socket.IO and MQTT over WebSocket) runs on port 3000; in production it
// serves this build itself, so every call stays same-origin under /api.
const apiTarget = 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries that change rarely get chunks of their own, so that a new release of the app does
        // not make browsers download them again. The charts (recharts) load on their own when shown.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            { name: 'data', test: /node_modules[\\/](@tanstack|zod)[\\/]|libs[\\/]contracts[\\/]/ },
            {
              name: 'live',
              test: /node_modules[\\/](socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser|@socket\.io)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
      '/mqtt': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
});
