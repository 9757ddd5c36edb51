/**
 * Leaflet places every marker with a 3D transform, which makes each of a fleet's 1,000 markers a compositing layer
 * of its own: the browser then spent 200–300 ms sorting layers every time anything on the dashboard was drawn again
 * (a live chart, a table row), and the page stuttered (docs/web-app.md, "Fleet dashboard"). Leaflet reads
 * `L_DISABLE_3D` once, when it loads, and then places markers by their offsets instead
 * (https://leafletjs.com/reference.html#browser-any3d); zooming jumps rather than glides. This module must be
 * imported before Leaflet.
 */
declare global {
  interface Window {
    L_DISABLE_3D?: boolean;
  }
}

window.L_DISABLE_3D = true;

export {};
