export { SmtpCatcher, type CaughtMail, type SmtpCatcherOptions } from './smtp-catcher.js';
export { SmsSink, type ReceivedSms, type SmsSinkOptions } from './sms-sink.js';
export { startInbox, type Inbox } from './inbox-server.js';
