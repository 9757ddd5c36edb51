/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the API lives; defaults to same-origin `/api`. */
  readonly VITE_API_URL?: string;
  /** The Socket.IO path; defaults to `/socket.io`. */
  readonly VITE_SOCKET_PATH?: string;
  /** The server's APP_TIMEZONE (the business day); defaults to `Africa/Dar_es_Salaam`. */
  readonly VITE_APP_TIMEZONE?: string;
  /** The server's CURRENCY; defaults to `TZS`. */
  readonly VITE_CURRENCY?: string;
  /** The server's MAP_TILE_URL, a raster tile server for the fleet map; unset: the offline basemap alone. */
  readonly VITE_MAP_TILE_URL?: string;
  /** The server's MAP_TILE_ATTRIBUTION, the credit the tile server asks for. */
  readonly VITE_MAP_TILE_ATTRIBUTION?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
