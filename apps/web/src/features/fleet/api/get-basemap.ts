import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FeatureCollection } from 'geojson';
import { fleetKeys } from './fleet-keys';

/**
 * The offline basemap of East Africa, a static file of the web app itself (docs/web-app.md, "Fleet map"):
 * no request leaves the server the app came from.
 */
export const BASEMAP_URL = '/basemap/east-africa.geojson';

export async function getBasemap(): Promise<FeatureCollection> {
  const res = await fetch(BASEMAP_URL);
  if (!res.ok) throw new Error(`The basemap answered ${res.status}`);
  return (await res.json()) as FeatureCollection;
}

export const getBasemapQueryOptions = () =>
  queryOptions({ queryKey: fleetKeys.basemap, queryFn: getBasemap, staleTime: Infinity, gcTime: Infinity });

export const useBasemap = () => useQuery(getBasemapQueryOptions());
