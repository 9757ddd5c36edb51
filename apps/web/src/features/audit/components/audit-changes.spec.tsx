import { afterEach, describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { setLanguage } from '@/lib/i18n';
import { isKnownAction } from '../audit-labels';
import { AuditChanges } from './audit-changes';

afterEach(async () => {
  await setLanguage('en');
});

describe('AuditChanges', () => {
  it('names common fields in plain words and keeps other field names and every value as stored', async () => {
    await setLanguage('sw');
    const { container } = render(
      <AuditChanges
        before={{ balance: 1000, ledgerEntryId: null }}
        after={{ balance: 600, amount: -400, kind: 'sale', ledgerEntryId: '17' }}
      />,
    );
    expect(screen.getAllByText('Salio')).toHaveLength(1);
    expect(screen.getByText('Kiasi')).toBeTruthy();
    expect(screen.getByText('Aina')).toBeTruthy();
    // Data is marked as not to translate: values and the field name without plain words.
    const untranslated = [...container.querySelectorAll('[translate="no"]')].map((e) => e.textContent);
    expect(untranslated).toEqual(['1000', '600', 'ledgerEntryId', '17', '-400', 'sale']);
    expect(container.textContent).not.toContain('balance');
  });

  it('says in words when a field was removed', () => {
    render(<AuditChanges before={{ ssid: 'Old-Net' }} after={{}} />);
    expect(screen.getByText('Wi-Fi name')).toBeTruthy();
    const removed = screen.getByText('(removed)');
    expect(removed.getAttribute('translate')).toBeNull();
  });
});

describe('isKnownAction', () => {
  it('knows every action code the server writes and nothing else', () => {
    for (const code of [
      'user.created',
      'user.removed',
      'user.deactivated',
      'user.reactivated',
      'device.created',
      'device.key-rotated',
      'device.coordinates_updated',
      'device.owner-assigned',
      'device.owner-removed',
      'device.attendant-assigned',
      'device.attendant-removed',
      'card.registered',
      'card.blocked',
      'card.unblocked',
      'card.replaced',
      'card.limits',
      'float_request.created',
      'float_request.approved',
      'float_request.rejected',
      'ledger.sale',
      'ledger.load',
      'ledger.top-up',
      'ledger.mobile-top-up',
      'ledger.float_approval',
      'ledger.refund',
      'ledger.transfer-out',
      'ledger.transfer-in',
      'tariffs.inserted',
      'wifi.updated',
      'alarm.acknowledged',
      'alarm.assigned',
      'alarm.noted',
      'alarm.cleared',
      'alarm_settings.updated',
    ]) {
      expect({ code, known: isKnownAction(code) }).toEqual({ code, known: true });
    }
    for (const code of ['ledger', 'ledger.', 'ledger.gift', 'robot.created', 'user.created.twice', 'toString.x']) {
      expect({ code, known: isKnownAction(code) }).toEqual({ code, known: false });
    }
  });
});
