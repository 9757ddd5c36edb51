import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startServer, type RunningServer } from '../support/server-process.js';

const imgSrc = (res: Response) =>
  /img-src ([^;]+)/.exec(res.headers.get('content-security-policy') ?? '')?.[1]?.split(' ') ?? [];

/**
 * docs/web-app.md, "Fleet map": the server hands MAP_TILE_URL and MAP_TILE_ATTRIBUTION to the web app in the
 * page, as it does the time zone, and lets the tile server's images through its content security policy.
 */
describe('the fleet map tile server in the page and the content security policy', () => {
  let plain: RunningServer;
  let tiled: RunningServer;
  beforeAll(async () => {
    plain = await startServer({ timeoutMs: 60_000 });
    tiled = await startServer({
      timeoutMs: 60_000,
      env: {
        MAP_TILE_URL: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png?key=public-1',
        MAP_TILE_ATTRIBUTION: '© Tiles & "Co" <b>',
      },
    });
  }, 150_000);
  afterAll(() => Promise.all([plain?.stop(), tiled?.stop()]));

  it('without MAP_TILE_URL writes no map tag and lets images come from the app alone', async () => {
    const res = await fetch(`${plain.baseUrl}/maindashboard`);
    const page = await res.text();
    expect(page).not.toContain('wv-map-tile');
    expect(imgSrc(res)).toEqual(["'self'", 'data:']);
  });

  it('with MAP_TILE_URL writes the template and the credit, escaped, and adds the tile origin to img-src', async () => {
    const res = await fetch(`${tiled.baseUrl}/manager/dashboard`);
    const page = await res.text();
    expect(page).toContain(
      '<meta name="wv-map-tile-url" content="https://{s}.tiles.example.org/{z}/{x}/{y}.png?key=public-1">',
    );
    expect(page).toContain('<meta name="wv-map-tile-attribution" content="© Tiles &amp; &quot;Co&quot; &lt;b>">');
    expect(imgSrc(res)).toEqual(["'self'", 'data:', 'https://*.tiles.example.org']);
    // The API's answers carry the same policy.
    expect(imgSrc(await fetch(`${tiled.baseUrl}/api/health`))).toEqual([
      "'self'",
      'data:',
      'https://*.tiles.example.org',
    ]);
  });
});
