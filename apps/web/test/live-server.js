/**
 * A real Socket.IO server for a test of live updates (see socket-io-server.js), started by the Jest
 * environment, which lends it to the page. Typed in live-server.d.ts.
 */
export const startLiveServer = () => globalThis.startLiveServer();
