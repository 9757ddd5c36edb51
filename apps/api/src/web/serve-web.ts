import express from 'express';
import type { Express, NextFunction, Request, Response } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Paths the web app never owns: the API, live events and MQTT over WebSocket. */
const NOT_THE_APP = /^\/(api|socket\.io|mqtt)(\/|$)/;

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Serves the built web app at `/`; every other GET path that is not the API falls back to
 * index.html so that the app's router handles deep links (docs/operations.md, "Configuration"). The page carries the
 * server's APP_TIMEZONE and CURRENCY, and MAP_TILE_URL and MAP_TILE_ATTRIBUTION when set (docs/web-app.md,
 * "Fleet map"), as meta tags, so one build fits every deployment (a meta tag, not an inline script,
 * keeps the content security policy strict).
 */
export function serveWebApp(
  app: Express,
  dist: string,
  runtime: { timezone: string; currency: string; map?: { tileUrl?: string; tileAttribution?: string } },
): boolean {
  const indexPath = join(dist, 'index.html');
  if (!existsSync(indexPath)) return false;
  const tag = (name: string, value: string | undefined) =>
    value === undefined ? '' : `<meta name="${name}" content="${escapeAttribute(value)}">`;
  const meta =
    tag('wv-timezone', runtime.timezone) +
    tag('wv-currency', runtime.currency) +
    tag('wv-map-tile-url', runtime.map?.tileUrl) +
    tag('wv-map-tile-attribution', runtime.map?.tileAttribution);
  const index = readFileSync(indexPath, 'utf8').replace('</head>', `${meta}</head>`);
  app.use(express.static(dist, { index: false, maxAge: '1h', setHeaders: noCacheForHtml }));
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_THE_APP.test(req.path)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(index);
  });
  return true;
}

function noCacheForHtml(res: Response, path: string): void {
  if (path.endsWith('.html')) res.setHeader('Cache-Control', 'no-cache');
}
