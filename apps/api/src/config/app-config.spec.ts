import { describe, expect, it } from '@jest/globals';
import { loadConfig, tileOrigin } from './app-config.js';

describe('the fleet map tile server setting (MAP_TILE_URL)', () => {
  it('is off when unset: the offline basemap alone, no attribution, no extra image origin', () => {
    const config = loadConfig({ MAP_TILE_ATTRIBUTION: '© Someone' });
    expect(config.map).toEqual({ tileUrl: undefined, tileAttribution: undefined, tileOrigin: undefined });
  });

  it('keeps the template and its attribution, and names the origin the tiles load from', () => {
    const config = loadConfig({
      MAP_TILE_URL: 'https://tile.example.org/{z}/{x}/{y}.png',
      MAP_TILE_ATTRIBUTION: '© OpenStreetMap contributors',
    });
    expect(config.map).toEqual({
      tileUrl: 'https://tile.example.org/{z}/{x}/{y}.png',
      tileAttribution: '© OpenStreetMap contributors',
      tileOrigin: 'https://tile.example.org',
    });
  });

  it.each([
    ['http://127.0.0.1:4567/tiles/{z}/{x}/{y}.png', 'http://127.0.0.1:4567'],
    ['https://{s}.tile.example.org/{z}/{x}/{y}.png', 'https://*.tile.example.org'],
    ['https://tiles.example.org/v1/{z}/{x}/{y}@2x.png?key=abc', 'https://tiles.example.org'],
  ])('finds the origin of %s', (template, origin) => {
    expect(tileOrigin(template)).toBe(origin);
  });

  it.each([
    'tile.example.org/{z}/{x}/{y}.png',
    'ftp://tile.example.org/{z}/{x}/{y}.png',
    'https://tile.example.org/tiles.png',
    'https://tile.example.org/{z}/{x}.png',
    'https://{z}.example.org/{x}/{y}.png',
    'javascript:alert(1)//{z}{x}{y}',
  ])('refuses %s with one line naming the variable', (template) => {
    expect(() => loadConfig({ MAP_TILE_URL: template })).toThrow(
      /^Invalid MAP_TILE_URL: MAP_TILE_URL must look like https:\/\/tile\.example\.org\/\{z\}\/\{x\}\/\{y\}\.png.*Change MAP_TILE_URL and start again\.$/,
    );
  });
});

describe('the sales retention (SALES_RETENTION_MONTHS, docs/partitions.md)', () => {
  it('keeps every sale when unset or empty, and takes a whole number of months', () => {
    expect(loadConfig({}).salesRetentionMonths).toBeUndefined();
    expect(loadConfig({ SALES_RETENTION_MONTHS: '' }).salesRetentionMonths).toBeUndefined();
    expect(loadConfig({ SALES_RETENTION_MONTHS: '24' }).salesRetentionMonths).toBe(24);
  });

  it.each(['0', '-1', '1.5', 'twelve', '1201'])('refuses %s with one line naming the variable', (value) => {
    expect(() => loadConfig({ SALES_RETENTION_MONTHS: value })).toThrow(
      /^Invalid SALES_RETENTION_MONTHS: SALES_RETENTION_MONTHS must .*Change SALES_RETENTION_MONTHS and start again\.$/,
    );
  });
});

describe('the worker’s CPU priority (WORKER_NICE, docs/performance.md)', () => {
  it('is 10 unless set, and takes a whole niceness from 0 to 19', () => {
    expect(loadConfig({}).workerNice).toBe(10);
    expect(loadConfig({ WORKER_NICE: '0' }).workerNice).toBe(0);
    expect(loadConfig({ WORKER_NICE: '19' }).workerNice).toBe(19);
  });

  it.each(['-5', '20', '2.5', 'low'])('refuses %s with one line naming the variable', (value) => {
    expect(() => loadConfig({ WORKER_NICE: value })).toThrow(
      /^Invalid WORKER_NICE: WORKER_NICE must be a whole number from 0 to 19.*Change WORKER_NICE and start again\.$/,
    );
  });
});
