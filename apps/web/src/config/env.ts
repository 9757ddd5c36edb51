/** A value the server put in the page (`<meta name="wv-…">`), read once at start. */
function serverMeta(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || undefined;
}

/**
 * The only place that reads the environment. The API and socket paths default to same-origin paths
 * because the API serves this app itself (and Vite proxies them in development). The time zone and
 * currency are the server's APP_TIMEZONE and CURRENCY (docs/operations.md, "Configuration"), which the server writes
 * into the page: the business day and every date filter are in that zone, whatever the browser's own
 * zone is. The VITE_ variables only serve the Vite dev server, which has no such page.
 */
export const env = {
  apiUrl: import.meta.env.VITE_API_URL ?? '/api',
  socketPath: import.meta.env.VITE_SOCKET_PATH ?? '/socket.io',
  timeZone: serverMeta('wv-timezone') ?? import.meta.env.VITE_APP_TIMEZONE ?? 'Africa/Dar_es_Salaam',
  currency: serverMeta('wv-currency') ?? import.meta.env.VITE_CURRENCY ?? 'TZS',
  /** The server's MAP_TILE_URL and MAP_TILE_ATTRIBUTION (docs/web-app.md, "Fleet map"); unset: the offline basemap alone. */
  mapTileUrl: serverMeta('wv-map-tile-url') ?? import.meta.env.VITE_MAP_TILE_URL,
  mapTileAttribution: serverMeta('wv-map-tile-attribution') ?? import.meta.env.VITE_MAP_TILE_ATTRIBUTION,
} as const;
