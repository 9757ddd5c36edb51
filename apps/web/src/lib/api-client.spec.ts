import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { apiRoutes, ledgerRoutes, salesViewRoutes } from '@wv/contracts';
import { env } from '@/config/env';
import { startApiServer, type ApiServer } from '../../test/api-server';
import {
  ApiError,
  NetworkError,
  callApi,
  errorDetail,
  fetchApiFile,
  routeUrl,
  serverText,
  setUnauthorizedHandler,
} from './api-client';

let server: ApiServer;
const TOKEN = 'header.eyJzdWIiOiJ1c2VyLTEiLCJyb2xlIjoibWFuYWdlciJ9.signature';

beforeAll(async () => {
  server = await startApiServer();
  // The tests' stand-in for config/env is a plain object: point it at this server.
  Object.assign(env, { apiUrl: server.apiUrl });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
  localStorage.clear();
  setUnauthorizedHandler(() => {});
});

function signIn(): void {
  localStorage.setItem('token', TOKEN);
  localStorage.setItem('role', 'manager');
  localStorage.setItem('tokenExpiry', String(Date.now() + 60_000));
}

const refusal = (status: number, body: object) => ({ status, body: { statusCode: status, ...body } });

describe('a call that succeeds', () => {
  it('sends the route’s method and path, the JSON body and the bearer token, and gives the parsed answer', async () => {
    signIn();
    server.answer(() => ({ status: 201, body: { id: 'card-row-1' } }));
    const body = {
      card_id: 'C-100',
      card_holder_first_name: 'Asha',
      card_holder_last_name: 'Mushi',
      card_balance: 1500,
      card_type: 'student',
    };

    const answer = await callApi(ledgerRoutes.addCard, { body, headers: { 'Idempotency-Key': 'key-1' } });

    expect(answer).toEqual({ id: 'card-row-1' });
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/att/add/user/card', body });
    expect(request.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'idempotency-key': 'key-1',
    });
  });

  it('fills in path parameters encoded and leaves empty query values out', async () => {
    signIn();
    server.answer(() => ({ body: { data: [], total: 0 } }));

    await callApi(salesViewRoutes.cardTransactions, {
      params: { machineId: 'ESP 1/2' },
      query: { page: 2, limit: 25, startDate: '', endDate: undefined, sort: 'price', order: 'asc' },
    });

    const [request] = server.requests;
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/machines/ESP%201%2F2/card-transactions');
    expect(request.query).toEqual({ page: '2', limit: '25', sort: 'price', order: 'asc' });
    expect(request.body).toBeUndefined();
    expect(request.headers['content-type']).toBeUndefined();
  });

  it('builds the same URL for links as for calls', () => {
    expect(routeUrl(ledgerRoutes.rejectFloat, { params: { requestId: 'r-1' } })).toBe(
      `${server.apiUrl}/manager/float-requests/r-1/reject`,
    );
    expect(() => routeUrl(ledgerRoutes.rejectFloat)).toThrow('Missing path parameter requestId');
  });

  it('sends no token to a public route even when one is stored', async () => {
    signIn();
    server.answer(() => ({ body: { token: 'new-token' } }));

    await callApi(apiRoutes.login, { body: { identifier: 'a@example.com', password: 'secret-pass' } });

    expect(server.requests[0].headers.authorization).toBeUndefined();
  });

  it('refuses an answer that does not match the route’s response schema', async () => {
    signIn();
    server.answer(() => ({ status: 201, body: { cardId: 'wrong field' } }));

    await expect(callApi(ledgerRoutes.rejectFloat, { params: { requestId: 'r-1' } })).rejects.toThrow();
  });

  it('downloads a file answer with the bearer token', async () => {
    signIn();
    server.answer(() => ({ body: 'PK-spreadsheet-bytes', contentType: 'application/octet-stream' }));

    const file = await fetchApiFile(salesViewRoutes.coinTransactionsExport, { params: { machineId: 'ESP1' } });

    expect(await file.text()).toBe('PK-spreadsheet-bytes');
    expect(server.requests[0].headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, accept: '*/*' });
  });
});

describe('a call that is refused', () => {
  it('throws an ApiError with the status and the server’s error body', async () => {
    signIn();
    server.answer(() => refusal(409, { code: 'CARD_EXISTS', message: 'Card is already registered.' }));

    const error = await callApi(ledgerRoutes.rejectFloat, { params: { requestId: 'r-1' } }).catch((e) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, message: 'Card is already registered.' });
    expect(error.body).toMatchObject({ code: 'CARD_EXISTS' });
  });

  it('shows the endpoint’s own sentence first, then the message, then the raw text', async () => {
    signIn();
    server.answer(() => refusal(400, { code: 'FLOAT_LOW', message: 'Bad request', error: 'Insufficient float' }));
    const withError = await callApi(ledgerRoutes.rejectFloat, { params: { requestId: 'r-1' } }).catch((e) => e);
    expect(serverText(withError)).toBe('Insufficient float');

    server.answer(() => refusal(403, { code: 'FORBIDDEN', message: 'Not your attendant' }));
    const withMessage = await callApi(ledgerRoutes.rejectFloat, { params: { requestId: 'r-1' } }).catch((e) => e);
    expect(serverText(withMessage)).toBe('Not your attendant');

    server.answer(() => ({ status: 502, body: 'Bad Gateway' }));
    const withText = await callApi(ledgerRoutes.rejectFloat, { params: { requestId: 'r-1' } }).catch((e) => e);
    expect(withText).toMatchObject({ status: 502, body: null, message: 'Bad Gateway' });
    expect(serverText(withText)).toBe('Bad Gateway');
  });

  it('names the status when the answer has no body at all', async () => {
    signIn();
    server.answer(() => ({ status: 500 }));

    const error = await callApi(ledgerRoutes.rejectFloat, { params: { requestId: 'r-1' } }).catch((e) => e);

    expect(errorDetail(error)).toBe('Request failed with status 500');
  });

  it('ends the session and hands over to the app when a signed-in call is answered 401', async () => {
    signIn();
    let redirected = 0;
    setUnauthorizedHandler(() => (redirected += 1));
    server.answer(() => refusal(401, { code: 'UNAUTHORIZED', message: 'Token expired' }));

    await expect(callApi(ledgerRoutes.managerFloatRequests)).rejects.toMatchObject({ status: 401 });

    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('tokenExpiry')).toBeNull();
    expect(redirected).toBe(1);
  });

  it('leaves a refused login to the login form', async () => {
    let redirected = 0;
    setUnauthorizedHandler(() => (redirected += 1));
    server.answer(() => refusal(401, { code: 'BAD_CREDENTIALS', message: 'Invalid credentials' }));

    const error = await callApi(apiRoutes.login, { body: { identifier: 'a@b.co', password: 'wrong' } }).catch((e) => e);

    expect(error).toMatchObject({ status: 401, message: 'Invalid credentials' });
    expect(redirected).toBe(0);
  });
});

describe('a call that gets no answer', () => {
  it('throws a NetworkError, which carries no server text', async () => {
    const gone = await startApiServer();
    await gone.close();
    Object.assign(env, { apiUrl: gone.apiUrl });
    try {
      const error = await callApi(ledgerRoutes.managerFloatRequests).catch((e) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect(serverText(error)).toBeUndefined();
    } finally {
      Object.assign(env, { apiUrl: server.apiUrl });
    }
  });
});
