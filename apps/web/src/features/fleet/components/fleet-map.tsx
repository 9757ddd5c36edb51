import type { FleetMachine } from '@wv/contracts';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';
import { StatusMessage } from '@/components/ui/status-message';
import { env } from '@/config/env';
import { paths } from '@/config/paths';
import { useTranslation } from '@/lib/i18n';
import { useBasemap } from '../api/get-basemap';
import {
  boundsOf,
  EAST_AFRICA_BOUNDS,
  escapeHtml,
  MARKER_STATUSES,
  markerStatus,
  markerSvg,
  placeMachines,
  type MarkerStatus,
} from './fleet-map-model';
import { basemapLayer } from './fleet-map-basemap';

const MARKER_SIZE = 26;

/** One icon per status, shared by every marker of that status. */
const icons = Object.fromEntries(
  MARKER_STATUSES.map((status) => [
    status,
    L.divIcon({
      className: `fleet-map-marker fleet-map-marker-${status}`,
      html: markerSvg(status, MARKER_SIZE),
      iconSize: [MARKER_SIZE, MARKER_SIZE],
      iconAnchor: [MARKER_SIZE / 2, MARKER_SIZE / 2],
      popupAnchor: [0, -MARKER_SIZE / 2],
    }),
  ]),
) as Record<MarkerStatus, L.DivIcon>;

/** The status in words: the connection, and the active alarms when there are any. */
function useStatusText() {
  const { t } = useTranslation();
  return useCallback(
    (machine: FleetMachine) =>
      machine.activeAlarms > 0
        ? t(machine.online ? 'mapView.popup.alarms' : 'mapView.popup.alarmsOffline', { count: machine.activeAlarms })
        : t(machine.online ? 'fleet.status.online' : 'fleet.status.offline'),
    [t],
  );
}

/**
 * The fleet map (docs/web-app.md, "Fleet map"): a marker per machine with a position, drawn over the
 * offline basemap of East Africa (and the tiles of MAP_TILE_URL when the server has one). Markers follow
 * the same machines as the table, so a live change of status recolours them. A marker opens, by click or
 * by Enter, a popup with the machine's ID, location, status and a link to its own view.
 */
export function FleetMap({ machines }: { machines: readonly FleetMachine[] }) {
  const { t } = useTranslation();
  const statusText = useStatusText();
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const markersRef = useRef(new Map<string, L.Marker>());
  const popupRef = useRef<L.Popup | null>(null);
  const framedRef = useRef(false);
  const focusLinkRef = useRef(false);
  const [popupNode] = useState(() => document.createElement('div'));
  const [selected, setSelected] = useState<string | null>(null);
  const basemap = useBasemap();
  const { placed, unplaced } = useMemo(() => placeMachines(machines), [machines]);

  useEffect(() => {
    const map = L.map(containerRef.current!, { minZoom: 4, maxZoom: env.mapTileUrl ? 18 : 16, zoomSnap: 0.5 });
    map.attributionControl.setPrefix(false);
    // Below the tiles: where a tile does not load (no network), the basemap still shows.
    map.createPane('basemap').style.zIndex = '150';
    if (env.mapTileUrl) {
      L.tileLayer(env.mapTileUrl, {
        maxZoom: 18,
        attribution: env.mapTileAttribution ? escapeHtml(env.mapTileAttribution) : undefined,
      }).addTo(map);
    }
    map.fitBounds(EAST_AFRICA_BOUNDS);
    popupRef.current = L.popup({
      maxWidth: 280,
      // Clear of the zoom buttons in the top left corner.
      autoPanPaddingTopLeft: [56, 16],
      autoPanPaddingBottomRight: [16, 16],
    }).setContent(popupNode);
    map.on('popupclose', () => setSelected(null));
    const resize = new ResizeObserver(() => map.invalidateSize());
    resize.observe(containerRef.current!);
    mapRef.current = map;
    const markers = markersRef.current;
    return () => {
      resize.disconnect();
      map.remove();
      mapRef.current = null;
      markers.clear();
      framedRef.current = false;
    };
  }, [popupNode]);

  useEffect(() => {
    const map = mapRef.current;
    if (!map || !basemap.data) return;
    const layer = basemapLayer(basemap.data, {
      credit: escapeHtml(t('mapView.basemapCredit')),
      // A tile server names its own places.
      cities: !env.mapTileUrl,
    }).addTo(map);
    return () => void layer.remove();
  }, [basemap.data, t]);

  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const markers = markersRef.current;
    const open = (espId: string, byKeyboard: boolean) => {
      const marker = markers.get(espId);
      if (!marker || !popupRef.current) return;
      focusLinkRef.current = byKeyboard;
      setSelected(espId);
      popupRef.current.setLatLng(marker.getLatLng()).openOn(map);
    };
    const seen = new Set<string>();
    for (const p of placed) {
      const { espId } = p.machine;
      seen.add(espId);
      let marker = markers.get(espId);
      if (!marker) {
        marker = L.marker([p.latitude, p.longitude], { icon: icons[p.status], keyboard: true, riseOnHover: true });
        marker.on('click', () => open(espId, false));
        marker.on('keypress', (e: L.LeafletKeyboardEvent) => {
          if (e.originalEvent.key !== 'Enter' && e.originalEvent.key !== ' ') return;
          e.originalEvent.preventDefault();
          open(espId, true);
        });
        marker.addTo(map);
        markers.set(espId, marker);
      } else {
        const at = marker.getLatLng();
        if (at.lat !== p.latitude || at.lng !== p.longitude) marker.setLatLng([p.latitude, p.longitude]);
        if (marker.options.icon !== icons[p.status]) marker.setIcon(icons[p.status]);
      }
      const element = marker.getElement();
      if (element) {
        const label = t('mapView.marker', { espId, status: statusText(p.machine) });
        element.dataset.espId = espId;
        element.dataset.status = p.status;
        element.setAttribute('aria-label', label);
        element.title = label;
      }
    }
    for (const [espId, marker] of markers) {
      if (seen.has(espId)) continue;
      marker.remove();
      markers.delete(espId);
    }
    const bounds = boundsOf(placed);
    if (bounds && !framedRef.current) {
      framedRef.current = true;
      map.fitBounds(bounds, { padding: [32, 32], maxZoom: 14 });
    }
  }, [placed, t, statusText]);

  const current = placed.find((p) => p.machine.espId === selected);
  useEffect(() => {
    if (selected && !current) popupRef.current?.close();
  }, [selected, current]);
  // The popup measures its content once drawn; the keyboard moves on into it.
  useLayoutEffect(() => {
    if (!current) return;
    popupRef.current?.update();
    if (focusLinkRef.current) {
      focusLinkRef.current = false;
      popupNode.querySelector('a')?.focus();
    }
  }, [current, popupNode, t]);

  const title = t('mapView.title');
  return (
    <section aria-label={title} className="card fleet-map-card">
      <h2 className="section-title">{title}</h2>
      <div ref={containerRef} className="fleet-map" role="region" aria-label={t('mapView.label')} />
      <ul className="fleet-map-legend" aria-label={t('mapView.legend.title')}>
        {MARKER_STATUSES.map((status) => (
          <li key={status} data-status={status}>
            <MarkerShape status={status} />
            <span>
              {t(`mapView.legend.${status}`)} <span className="muted">({t(`mapView.legend.${status}Hint`)})</span>
            </span>
          </li>
        ))}
      </ul>
      {placed.length === 0 && machines.length > 0 && <p className="muted">{t('mapView.nonePlaced')}</p>}
      {unplaced > 0 && <p className="muted fleet-map-unplaced">{t('mapView.unplaced', { count: unplaced })}</p>}
      {basemap.isError && <StatusMessage tone="error">{t('mapView.basemapError')}</StatusMessage>}
      {current &&
        createPortal(
          <div className="fleet-map-popup" data-esp-id={current.machine.espId}>
            <strong>{current.machine.espId}</strong>
            <dl>
              <dt>{t('mapView.popup.location')}</dt>
              <dd>{current.machine.location ?? t('mapView.popup.noLocation')}</dd>
              <dt>{t('mapView.popup.status')}</dt>
              <dd data-status={markerStatus(current.machine)}>{statusText(current.machine)}</dd>
            </dl>
            <Link to={paths.manager.machine.getHref(current.machine.espId)}>
              {t('mapView.popup.open', { espId: current.machine.espId })}
            </Link>
          </div>,
          popupNode,
        )}
    </section>
  );
}

/** The legend's sample of a marker, the same picture as on the map. */
function MarkerShape({ status }: { status: MarkerStatus }) {
  return <span className="fleet-map-legend-shape" dangerouslySetInnerHTML={{ __html: markerSvg(status, 18) }} />;
}
