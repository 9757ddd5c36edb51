import { describe, expect, it } from '@jest/globals';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { createTestService, provide } from '../../test/support/create-test-service.js';
import { ChannelError } from './channel-error.js';
import { describeChannels, NotificationDispatcher } from './notification.dispatcher.js';
import { NotificationOutboxRepository, type ClaimedBatch, type ClaimResult } from './notification-outbox.repository.js';
import { SmsSender } from './sms.sender.js';

// What the dispatcher does with a send's outcome when PostgreSQL fails at the moment of recording it
// (a restart, a reset connection). The claim, the lease and the statements are PostgreSQL's
// (apps/api/test/integration/notification*.integration-spec.ts).

const config = {
  timezone: 'Africa/Dar_es_Salaam',
  notifications: { leaseSeconds: 30, digestSeconds: 1, retryDelayMs: 100 },
} as unknown as AppConfig;

const batch: ClaimedBatch = {
  batchId: 'batch-1',
  messageId: '<alarm-batch-1@soak.local>',
  channel: 'sms',
  address: '+255700000001',
  resend: false,
  lines: [
    {
      id: '1',
      event: 'opened',
      espId: 'ESP1',
      kind: 'low_tank',
      severity: 'major',
      openedAt: new Date('2026-11-25T08:00:00Z'),
      location: null,
      details: {},
    },
  ],
};

function dispatcher() {
  const { sut, fakes } = createTestService(NotificationDispatcher, provide(APP_CONFIG, config));
  const outbox = fakes.get(NotificationOutboxRepository);
  const claims: ClaimResult[] = [{ kind: 'batch', batch }, { kind: 'none' }];
  outbox.claim.mockImplementation(async () => claims.shift() ?? { kind: 'none' });
  outbox.purge.mockResolvedValue(0);
  outbox.markHanded.mockResolvedValue(true);
  return { sut, outbox, sms: fakes.get(SmsSender) };
}

describe('NotificationDispatcher records what it sent', () => {
  it('records the hand-over of an SMS before sending it, and sends nothing when its claim was lost meanwhile', async () => {
    const handed = dispatcher();
    handed.sms.send.mockResolvedValue(undefined);
    await handed.sut.tick();
    expect(handed.outbox.markHanded).toHaveBeenCalledWith(batch);
    expect(handed.outbox.markHanded.mock.invocationCallOrder[0]).toBeLessThan(
      handed.sms.send.mock.invocationCallOrder[0]!,
    );

    const lost = dispatcher();
    lost.outbox.markHanded.mockResolvedValue(false);
    await lost.sut.tick();
    expect(lost.sms.send).not.toHaveBeenCalled();
    expect(lost.outbox.markSent).not.toHaveBeenCalled();
    expect(lost.outbox.markFailed).not.toHaveBeenCalled();
  });

  it('records a sent SMS once PostgreSQL answers again, instead of leaving it to the lease (which gives it up)', async () => {
    const { sut, outbox, sms } = dispatcher();
    sms.send.mockResolvedValue(undefined);
    outbox.markSent
      .mockRejectedValueOnce(new Error('Connection terminated unexpectedly'))
      .mockRejectedValueOnce(new Error('connect ECONNREFUSED'))
      .mockResolvedValue(undefined);

    await sut.tick();

    expect(sms.send).toHaveBeenCalledTimes(1);
    expect(outbox.markSent).toHaveBeenCalledTimes(3);
    expect(outbox.markSent).toHaveBeenLastCalledWith(batch);
    expect(outbox.markFailed).not.toHaveBeenCalled();
  });

  it('records a failed send for its retry once PostgreSQL answers again', async () => {
    const { sut, outbox, sms } = dispatcher();
    sms.send.mockRejectedValue(new ChannelError('SMS API answered 503', false));
    outbox.markFailed
      .mockRejectedValueOnce(new Error('Connection terminated unexpectedly'))
      .mockResolvedValue(undefined);

    await sut.tick();

    expect(outbox.markFailed).toHaveBeenCalledTimes(2);
    expect(outbox.markFailed).toHaveBeenLastCalledWith(
      batch,
      'SMS API answered 503',
      expect.objectContaining({ permanent: false }),
    );
    expect(outbox.markSent).not.toHaveBeenCalled();
  });
});

describe('NotificationDispatcher writes in the recipient’s language', () => {
  it('asks the outbox for the claimed message’s language when it sends, and writes in it', async () => {
    const { sut, outbox, sms } = dispatcher();
    outbox.language.mockResolvedValue('sw');
    sms.send.mockResolvedValue(undefined);
    outbox.markSent.mockResolvedValue(undefined);

    await sut.tick();

    expect(outbox.language).toHaveBeenCalledWith(batch.batchId);
    expect(sms.send).toHaveBeenCalledWith(batch.address, 'KUBWA: tangi liko chini kwenye ESP1 tangu 11:00');
  });

  it('writes English when the outbox knows no language', async () => {
    const { sut, outbox, sms } = dispatcher();
    outbox.language.mockResolvedValue('en');
    sms.send.mockResolvedValue(undefined);
    outbox.markSent.mockResolvedValue(undefined);

    await sut.tick();

    expect(sms.send).toHaveBeenCalledWith(batch.address, 'MAJOR: low tank at ESP1 since 11:00');
  });
});

describe('describeChannels', () => {
  const with_ = (notifications: object) => ({ notifications }) as unknown as AppConfig;

  it('names each channel on or off and the hosts, never a password', () => {
    const line = describeChannels(
      with_({ smtpUrl: 'smtps://alarms:s3cret@smtp.example.com:465', sms: { url: 'https://api.africastalking.com' } }),
    );
    expect(line).toBe('email on (smtp.example.com:465), SMS on (api.africastalking.com)');
    expect(line).not.toContain('s3cret');
  });

  it('says which variables to set for a channel that is off', () => {
    expect(describeChannels(with_({}))).toBe(
      'email off (SMTP_URL unset), SMS off (SMS_URL, SMS_USERNAME or SMS_API_KEY unset)',
    );
  });
});
