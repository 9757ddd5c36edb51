import { startInbox } from './inbox-server.js';
import { SmsSink } from './sms-sink.js';
import { SmtpCatcher } from './smtp-catcher.js';

/**
 * The outside world alone, for trying notifications by hand: `node apps/demo/dist/outside/main.js`
 * starts the SMTP catcher on 2525, the SMS sink on 2526 (username `demo`, API key `demo-sms-key`) and the
 * inbox on 2527, and prints the variables to give the program (docs/alarms.md, "Notifications").
 */
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

const catcher = new SmtpCatcher({ port: port('SMTP_CATCHER_PORT', 2525) });
const sink = new SmsSink({ username: 'demo', apiKey: 'demo-sms-key', port: port('SMS_SINK_PORT', 2526) });
await catcher.start();
await sink.start();
const inbox = await startInbox(catcher, sink, port('INBOX_PORT', 2527));
process.stdout.write(
  [
    `SMTP_URL=${catcher.url} SMS_URL=${sink.url} SMS_USERNAME=demo SMS_API_KEY=demo-sms-key`,
    `Messages: ${inbox.url}`,
    '',
  ].join('\n'),
);
const stop = () => {
  void Promise.all([inbox.stop(), catcher.stop(), sink.stop()]).then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
