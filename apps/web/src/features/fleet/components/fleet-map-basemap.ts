import type { Feature, FeatureCollection, Geometry } from 'geojson';
import L from 'leaflet';

/** The basemap's kinds of feature (scripts/make-basemap.mjs writes them). */
type Kind = 'land' | 'lake' | 'coast' | 'border' | 'city';

const STYLES: Record<Exclude<Kind, 'city'>, L.PathOptions> = {
  land: { stroke: false, fillColor: '#f2efe6', fillOpacity: 1 },
  lake: { stroke: false, fillColor: '#aad3df', fillOpacity: 1 },
  coast: { color: '#7a9bb0', weight: 1, fill: false },
  border: { color: '#9a8c98', weight: 1, dashArray: '4 3', fill: false },
};

const kindOf = (feature: Feature<Geometry, { kind?: Kind }> | undefined): Kind => feature?.properties?.kind ?? 'land';

/**
 * The offline basemap as Leaflet vector layers in the `basemap` pane (docs/web-app.md, "Fleet map"): land,
 * lakes, coastline and borders, and the main cities as small dots with their names. Nothing on it
 * answers the pointer: only the machines do.
 */
export function basemapLayer(data: FeatureCollection, options: { credit: string; cities: boolean }): L.GeoJSON {
  return L.geoJSON(data, {
    pane: 'basemap',
    interactive: false,
    attribution: options.credit,
    filter: (feature) => options.cities || kindOf(feature) !== 'city',
    style: (feature) => {
      const kind = kindOf(feature);
      return kind === 'city' ? {} : STYLES[kind];
    },
    pointToLayer: (feature: Feature<Geometry, { name?: string; capital?: boolean }>, latlng) =>
      L.circleMarker(latlng, {
        pane: 'basemap',
        interactive: false,
        radius: feature.properties.capital ? 3.5 : 2.5,
        color: '#4b5563',
        weight: 1,
        fillColor: '#ffffff',
        fillOpacity: 1,
      }).bindTooltip(feature.properties.name ?? '', {
        permanent: true,
        direction: 'right',
        offset: [4, 0],
        className: 'fleet-map-city',
      }),
  });
}
