import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from '../config/app-config.js';
import { ChannelError } from './channel-error.js';
import { SmsSender } from './sms.sender.js';

/** A local HTTP server in the SMS API's place, answering each request with `answer`. */
async function api(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const senderFor = (url: string) =>
  new SmsSender({ notifications: { sms: { url, username: 'sandbox', apiKey: 'key' } } } as unknown as AppConfig);

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** What `send` threw, as the dispatcher reads it. */
async function failureOf(promise: Promise<void>): Promise<ChannelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChannelError);
  return error as ChannelError;
}

const recipients = (statusCode: number, status: string) =>
  JSON.stringify({
    SMSMessageData: { Message: 'Sent to 1/1', Recipients: [{ statusCode, number: '+255700000001', status }] },
  });

describe('SmsSender (an Africa’s Talking–compatible messaging API)', () => {
  const servers: Server[] = [];
  const start = async (answer: (req: IncomingMessage, res: ServerResponse) => void) => {
    const server = await api(answer);
    servers.push(server);
    return senderFor(urlOf(server));
  };
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  it('takes a 201 whose recipient is 101 Success as sent', async () => {
    const sender = await start((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(recipients(101, 'Success'));
    });
    await expect(sender.send('+255700000001', 'hello')).resolves.toBeUndefined();
  });

  it('gives up as of unknown outcome an SMS whose 201 answer was cut before its body ended (the API took it)', async () => {
    const sender = await start((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': '400' });
      res.write('{"SMSMessageData":{"Message":"Sent to 1/1",');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const error = await failureOf(sender.send('+255700000001', 'hello'));
    expect(error).toMatchObject({ permanent: false, unknown: true });
    expect(error.message).toMatch(/^SMS API did not answer: its answer was cut/);
  });

  it('tries again later (not unknown) after a 503, even when its body was cut', async () => {
    const sender = await start((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain', 'content-length': '100' });
      res.write('Service Unav');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    expect(await failureOf(sender.send('+255700000001', 'hello'))).toMatchObject({ permanent: false, unknown: false });
  });

  it('refuses for good a number the API calls invalid (403 InvalidPhoneNumber)', async () => {
    const sender = await start((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(recipients(403, 'InvalidPhoneNumber'));
    });
    expect(await failureOf(sender.send('+255700000001', 'hello'))).toMatchObject({ permanent: true, unknown: false });
  });

  it('calls an API that refuses the connection unreachable: nothing can have arrived', async () => {
    const server = await api(() => undefined);
    const url = urlOf(server);
    await new Promise((r) => server.close(r));
    const error = await failureOf(senderFor(url).send('+255700000001', 'hello'));
    expect(error).toMatchObject({ permanent: false, unknown: false });
    expect(error.message).toMatch(/unreachable: ECONNREFUSED/);
  });
});
