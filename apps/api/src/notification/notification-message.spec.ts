import { describe, expect, it } from '@jest/globals';
import { composeEmail, composeSms, EMAIL_LIST_LIMIT, SMS_MAX_CHARS } from './notification-message.js';
import type { BatchLine } from './notification-outbox.repository.js';

const line = (i: number, over: Partial<BatchLine> = {}): BatchLine => ({
  id: String(i),
  event: 'opened',
  espId: `ESP-${String(i).padStart(4, '0')}`,
  kind: 'offline',
  severity: 'critical',
  openedAt: new Date('2026-11-25T18:40:00Z'),
  location: 'Kariakoo',
  details: {},
  ...over,
});

describe('alarm message texts', () => {
  it('names one alarm by severity, kind, machine and local time', () => {
    const email = composeEmail([line(1, { details: { minutes: 12 } })], 'Africa/Dar_es_Salaam');
    expect(email.subject).toBe('[CRITICAL] offline at ESP-0001 (Kariakoo)');
    expect(email.text).toContain('Opened: 2026-11-25 21:40 (Africa/Dar_es_Salaam)');
    expect(email.text).toContain('"minutes":12');
    expect(composeSms([line(1)], 'Africa/Dar_es_Salaam')).toBe('CRITICAL: offline at ESP-0001 (Kariakoo) since 21:40');
  });

  it('marks an escalation', () => {
    expect(composeEmail([line(1, { event: 'escalated' })], 'UTC').subject).toMatch(/^ESCALATED \[CRITICAL\]/);
    expect(composeSms([line(1, { event: 'escalated' })], 'UTC')).toMatch(/^ESCALATED CRITICAL/);
  });

  it('sums thousands of alarms into one bounded digest', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => line(i, { severity: i % 2 ? 'major' : 'critical' }));
    const email = composeEmail(lines, 'UTC');
    expect(email.subject).toBe('5000 alarms on your machines (2500 critical, 2500 major)');
    expect(email.text.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(EMAIL_LIST_LIMIT);
    expect(email.text).toContain(`… and ${5000 - EMAIL_LIST_LIMIT} more.`);
    const sms = composeSms(lines, 'UTC');
    expect(sms.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(sms).toMatch(/^5000 alarms \(2500 critical, 2500 major\): ESP-0000 offline;/);
    const listed = (sms.match(/ESP-\d{4}/g) ?? []).length;
    expect(sms.endsWith(` +${5000 - listed} more`)).toBe(true);
  });

  it('writes one alarm in Kiswahili for a recipient who chose it, times still local', () => {
    const email = composeEmail([line(1, { details: { minutes: 12 } })], 'Africa/Dar_es_Salaam', 'sw');
    expect(email.subject).toBe('[HATARI] nje ya mtandao kwenye ESP-0001 (Kariakoo)');
    expect(email.text).toContain('Mashine: ESP-0001 (Kariakoo)');
    expect(email.text).toContain('Ilianza: 2026-11-25 21:40 (Africa/Dar_es_Salaam)');
    expect(email.text).toContain('Maelezo: {"minutes":12}');
    expect(email.text).toContain('ukurasa wa Tahadhari');
    expect(composeSms([line(1)], 'Africa/Dar_es_Salaam', 'sw')).toBe(
      'HATARI: nje ya mtandao kwenye ESP-0001 (Kariakoo) tangu 21:40',
    );
    const escalated = line(1, { event: 'escalated', severity: 'major', kind: 'low_tank' });
    expect(composeEmail([escalated], 'UTC', 'sw').subject).toBe(
      'IMEPANDISHWA [KUBWA] tangi liko chini kwenye ESP-0001 (Kariakoo)',
    );
    expect(composeEmail([escalated], 'UTC', 'sw').text).toMatch(
      /^Bado iko wazi na haijapokelewa: tangi liko chini \(kubwa\)/,
    );
    expect(composeSms([escalated], 'UTC', 'sw')).toMatch(/^IMEPANDISHWA KUBWA: tangi liko chini/);
  });

  it('writes a digest in Kiswahili, as bounded as the English one', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => line(i, { severity: i % 2 ? 'major' : 'critical' }));
    const email = composeEmail(lines, 'UTC', 'sw');
    expect(email.subject).toBe('Tahadhari 5000 kwenye mashine zako (hatari 2500, kubwa 2500)');
    expect(email.text).toMatch(/^Tahadhari 5000 tangu ujumbe uliopita \(saa za UTC\):/);
    expect(email.text).toContain(`… na nyingine ${5000 - EMAIL_LIST_LIMIT}.`);
    const sms = composeSms(lines, 'UTC', 'sw');
    expect(sms.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(sms).toMatch(/^Tahadhari 5000 \(hatari 2500, kubwa 2500\): ESP-0000 nje ya mtandao;/);
    const listed = (sms.match(/ESP-\d{4}/g) ?? []).length;
    expect(sms.endsWith(` +${5000 - listed} zaidi`)).toBe(true);
  });

  it('writes English when no language is known, and names an unknown kind by its words', () => {
    expect(composeSms([line(1)], 'UTC')).toBe(composeSms([line(1)], 'UTC', 'en'));
    expect(composeSms([line(1, { kind: 'pump_dry_run' })], 'UTC', 'sw')).toContain('pump dry run kwenye');
  });
});
