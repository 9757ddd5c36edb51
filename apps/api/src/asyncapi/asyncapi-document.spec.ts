import { describe, expect, it } from '@jest/globals';
import { Parser } from '@asyncapi/parser';
import { readFile } from 'node:fs/promises';
import { buildAsyncApiDocument } from './asyncapi-document.js';

const COMMITTED = new URL('../../../../docs/asyncapi.json', import.meta.url);

/** Diagnostic severities of the parser (Spectral's): 0 is an error, 1 a warning. */
const ERROR = 0;

describe('the AsyncAPI document', () => {
  it('is a valid AsyncAPI 3 document', async () => {
    const { document, diagnostics } = await new Parser().parse(
      buildAsyncApiDocument() as Parameters<Parser['parse']>[0],
    );
    const errors = diagnostics.filter((d) => d.severity === ERROR).map((d) => `${d.path.join('.')}: ${d.message}`);
    expect(errors).toEqual([]);
    expect(document).toBeDefined();
  });

  it('describes every topic of the device protocol with its parameters and QoS', async () => {
    const { document } = await new Parser().parse(buildAsyncApiDocument() as Parameters<Parser['parse']>[0]);
    const addresses = document!
      .channels()
      .all()
      .map((c) => c.address());
    expect(addresses).toEqual(
      expect.arrayContaining([
        'wv/v1/provision/{mac}/hello',
        'wv/v1/provision/{mac}/assignment',
        'wv/v1/machines/{espId}/sales',
        'wv/v1/machines/{espId}/sales/ack',
        'wv/v1/machines/{espId}/status',
        'wv/v1/machines/{espId}/config',
        'wv/v1/machines/{espId}/config/ack',
      ]),
    );
    const config = document!.operations().get('sendConfig')!;
    expect(config.action()).toBe('send');
    expect(config.bindings().get('mqtt')?.value()).toMatchObject({ qos: 1, retain: true });
    expect(document!.operations().get('receiveSales')!.action()).toBe('receive');
  });

  it('equals docs/asyncapi.json, so the committed file cannot go stale (npm run docs:asyncapi rewrites it)', async () => {
    const committed: unknown = JSON.parse(await readFile(COMMITTED, 'utf8'));
    expect(committed).toEqual(buildAsyncApiDocument());
  });
});
