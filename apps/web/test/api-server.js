import { createServer } from 'node:http';

/**
 * A real HTTP server standing in for the API in the web app's unit tests: the test says how it
 * answers and reads what it was asked. Typed in api-server.d.ts (the web app's types have no Node).
 */
/** JSON bodies parsed; anything else (a multipart upload) kept as its text. */
function parseBody(text) {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function startApiServer() {
  let handler = () => ({ status: 404, body: { statusCode: 404, code: 'NOT_FOUND', message: 'Not found' } });
  const requests = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (text += chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const request = {
        method: req.method ?? 'GET',
        path: url.pathname.replace(/^\/api/, ''),
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: parseBody(text),
      };
      requests.push(request);
      const { status = 200, body, contentType } = await handler(request);
      const raw = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
      res.writeHead(status, {
        'content-type': contentType ?? (typeof body === 'string' ? 'text/plain' : 'application/json'),
      });
      res.end(raw);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    apiUrl: `http://127.0.0.1:${port}/api`,
    requests,
    answer(next) {
      handler = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
