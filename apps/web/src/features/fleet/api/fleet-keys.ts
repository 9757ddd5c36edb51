/** Query keys of the fleet dashboard (docs/web-app.md, "Fleet dashboard"). */
export const fleetKeys = {
  all: ['fleet'] as const,
  machines: ['fleet', 'machines'] as const,
  headline: ['fleet', 'headline'] as const,
  coordinates: (espId: string) => ['fleet', 'coordinates', espId] as const,
  basemap: ['fleet', 'basemap'] as const,
};

/**
 * The table and the headline are asked again every 30 seconds while the dashboard is open: a fleet of 1,000
 * machines sells several times a second, and patching every row on every sale would cost more than one query.
 */
export const FLEET_REFRESH_MS = 30_000;
