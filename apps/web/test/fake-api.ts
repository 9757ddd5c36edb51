import { afterAll, afterEach, beforeAll } from '@jest/globals';
import { env } from '@/config/env';
import { startApiServer, type ApiServer } from './api-server';

/**
 * The fake API of one test file: started before its tests with `env.apiUrl` pointing at it, and closed after them.
 * Each test starts with no recorded request and an empty localStorage (no token). A file adds hooks of its own for
 * anything more.
 */
export function useFakeApi(): ApiServer {
  let server: ApiServer | undefined;
  const started = () => {
    if (!server) throw new Error('The fake API starts before the first test (beforeAll)');
    return server;
  };
  beforeAll(async () => {
    server = await startApiServer();
    Object.assign(env, { apiUrl: server.apiUrl });
  });
  afterAll(() => server?.close());
  afterEach(() => {
    if (server) server.requests.length = 0;
    localStorage.clear();
  });
  return {
    get apiUrl() {
      return started().apiUrl;
    },
    get requests() {
      return started().requests;
    },
    answer: (handler) => started().answer(handler),
    close: () => started().close(),
  };
}
