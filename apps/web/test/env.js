/**
 * Stands in for src/config/env.ts under Jest, which has no `import.meta.env` (Vite defines it). The
 * values are the server's defaults (docs/operations.md, "Configuration"); a test that makes requests
 * points `apiUrl` at its own server (test/api-server.js).
 */
export const env = {
  apiUrl: 'http://127.0.0.1:9/api',
  socketPath: '/socket.io',
  timeZone: 'Africa/Dar_es_Salaam',
  currency: 'TZS',
  mapTileUrl: undefined,
  mapTileAttribution: undefined,
};
