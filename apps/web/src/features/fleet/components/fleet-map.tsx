import type { FleetMachine } from '@wv/contracts';
// First: it tells Leaflet, before it loads, to place markers without 3D transforms.
import './leaflet-2d';
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
  type PlacedMachine,
} from './fleet-map-model';
import { basemapLayer } from './fleet-map-basemap';

const MARKER_SIZE = 26;
/** Markers placed per animation frame while a fleet's map fills. */
const MARKERS_PER_FRAME = 200;

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
  const drawnRef = useRef<{ looks: Map<string, string>; words?: unknown }>({ looks: new Map() });
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
      drawnRef.current.looks.clear();
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
    // What each marker shows, so that a refresh of 1,000 machines (their sales change every few seconds) touches
    // only the markers whose place, status or words changed (docs/web-app.md, "Fleet dashboard").
    const drawn = drawnRef.current;
    // The words follow the language (statusText is made from t).
    if (drawn.words !== t) {
      drawn.looks.clear();
      drawn.words = t;
    }
    // Framed first: placing the markers and then moving the view would place every one of them twice.
    const bounds = boundsOf(placed);
    if (bounds && !framedRef.current) {
      framedRef.current = true;
      map.fitBounds(bounds, { padding: [32, 32], maxZoom: 14 });
    }
    const seen = new Set(placed.map((p) => p.machine.espId));
    for (const [espId, marker] of markers) {
      if (seen.has(espId)) continue;
      marker.remove();
      markers.delete(espId);
      drawn.looks.delete(espId);
    }
    const draw = (p: PlacedMachine, look: string) => {
      const { espId } = p.machine;
      drawn.looks.set(espId, look);
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
    };
    const due: [PlacedMachine, string][] = [];
    for (const p of placed) {
      const look = `${p.latitude} ${p.longitude} ${p.status} ${p.machine.online} ${p.machine.activeAlarms}`;
      if (!markers.has(p.machine.espId) || drawn.looks.get(p.machine.espId) !== look) due.push([p, look]);
    }
    // A fleet's first thousand markers go on in slices, one per frame, so that the rest of the page is usable
    // while they appear; a slice cut short by new data is finished by the next run (its markers are not drawn yet).
    let frame = 0;
    const drawFrom = (from: number) => {
      const to = Math.min(from + MARKERS_PER_FRAME, due.length);
      for (let i = from; i < to; i++) draw(...due[i]!);
      if (to < due.length) frame = requestAnimationFrame(() => drawFrom(to));
    };
    drawFrom(0);
    return () => cancelAnimationFrame(frame);
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
