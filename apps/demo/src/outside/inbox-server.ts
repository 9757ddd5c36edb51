import { createServer, type Server } from 'node:http';
import type { SmtpCatcher } from './smtp-catcher.js';
import type { SmsSink } from './sms-sink.js';
import { listenOn } from './listen.js';

export interface Inbox {
  url: string;
  stop(): Promise<void>;
}

/**
 * Where a person reads what the demo "sent": `GET /` lists the emails and SMS as text, newest first;
 * `GET /emails.json` and `GET /sms.json` give them as JSON (attachments by name and size).
 */
export async function startInbox(catcher: SmtpCatcher, sink: SmsSink, port = 0, host = '127.0.0.1'): Promise<Inbox> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://inbox').pathname;
    const emails = catcher.messages().map((m) => ({
      ...m,
      attachments: m.attachments.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        size: a.content.length,
      })),
    }));
    if (path === '/emails.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(emails));
    }
    if (path === '/sms.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(sink.messages()));
    }
    if (path !== '/') {
      res.writeHead(404);
      return void res.end();
    }
    const lines = [
      `${emails.length} email(s), ${sink.messages().length} SMS`,
      '',
      ...[...sink.messages()].reverse().map((s) => `SMS   ${s.receivedAt.toISOString()}  to ${s.to}: ${s.message}`),
      '',
      ...[...emails]
        .reverse()
        .map(
          (m) =>
            `EMAIL ${m.receivedAt.toISOString()}  to ${m.to.join(', ')}: ${m.subject}` +
            (m.attachments.length ? `  [${m.attachments.map((a) => a.filename).join(', ')}]` : '') +
            `\n${m.text.replace(/^/gm, '      ')}`,
        ),
    ];
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(lines.join('\n'));
  });
  const bound = await listenOn(server, (listening) => server.listen(port, host, listening));
  return {
    url: `http://${host}:${bound}/`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
