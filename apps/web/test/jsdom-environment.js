import { TestEnvironment } from 'jest-environment-jsdom';
import { startSocketIoServer } from './socket-io-server.js';

/**
 * jsdom for the web app's unit tests, with the parts of a browser that jsdom leaves out but Node has:
 * `fetch` and its classes, the text codecs and streams. The tests lend Node's own to the window, so
 * that code under test talks to a real HTTP server (test/api-server.js) instead of a mocked fetch,
 * and to a real Socket.IO server (test/live-server.js).
 */
const LENT_FROM_NODE = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  'TextEncoder',
  'TextDecoder',
  'ReadableStream',
  'structuredClone',
];

export default class WebTestEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of LENT_FROM_NODE) this.global[name] = globalThis[name];
    // A live-events server for the page's same-origin Socket.IO connection (test/live-server.js).
    this.global.startLiveServer = () => startSocketIoServer((url) => this.dom.reconfigure({ url }));
  }
}
