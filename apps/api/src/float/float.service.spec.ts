import { beforeEach, describe, expect, it } from '@jest/globals';
import { ErrorCode } from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { DomainEvents } from '../events/domain-events.js';
import { LedgerService } from '../ledger/ledger.service.js';
import type { IdempotentCall } from '../ledger/idempotency.service.js';
import { createTestService, idempotencyInPlace, TX, type Fake } from '../../test/support/create-test-service.js';
import { FloatRepository, type StoredFloatRequest } from './float.repository.js';
import { FloatService } from './float.service.js';

// The rules of approving float that the service decides. Which requests a manager sees, the balance
// limit itself and the rollback of a refused approval are PostgreSQL's (apps/api/test/integration).

const manager: Actor = { userId: 'manager-1', role: 'manager' };
const call = {} as IdempotentCall;
const attendant = { id: 'attendant-1', name: 'Asha Mushi', managerId: 'manager-1' };

const pending = (fields: Partial<StoredFloatRequest> = {}): StoredFloatRequest => ({
  id: 'request-1',
  attendantId: 'attendant-1',
  requestedCents: 50_000_00,
  approvedCents: null,
  status: 'pending',
  requestedAt: new Date('2026-04-01T06:00:00Z'),
  decidedAt: null,
  ...fields,
});

const approvedAs = (request: StoredFloatRequest, cents: number): StoredFloatRequest => ({
  ...request,
  approvedCents: cents,
  status: 'approved',
  decidedAt: new Date('2026-04-01T07:00:00Z'),
});

describe('FloatService.assign', () => {
  let sut: FloatService;
  let requests: Fake<FloatRepository>;
  let ledger: Fake<LedgerService>;
  let events: Fake<DomainEvents>;

  beforeEach(() => {
    const built = createTestService(FloatService, idempotencyInPlace);
    sut = built.sut;
    requests = built.fakes.get(FloatRepository);
    ledger = built.fakes.get(LedgerService);
    events = built.fakes.get(DomainEvents);
    requests.findAttendant.mockResolvedValue(attendant);
    requests.findVisible.mockResolvedValue(pending());
    requests.approve.mockImplementation(async (_m, _id, cents) => approvedAs(pending(), cents));
    ledger.creditFloat.mockResolvedValue(120_000_50);
  });

  it('approves the named request with the amount in cents and credits the attendant’s float by it', async () => {
    const answer = await sut.assign(
      manager,
      { attendantId: 'attendant-1', amount: 45_000.5, requestId: 'request-1' },
      call,
    );

    expect(answer).toEqual({ message: 'Float assigned successfully' });
    expect(requests.approve).toHaveBeenCalledWith(TX, 'request-1', 45_000_50, 'manager-1');
    expect(ledger.creditFloat).toHaveBeenCalledWith(TX, 'attendant-1', 45_000_50);
  });

  it('explains the new float balance with one ledger entry of the approval', async () => {
    await sut.assign(manager, { attendantId: 'attendant-1', amount: 45_000.5, requestId: 'request-1' }, call);

    expect(ledger.insertEntries).toHaveBeenCalledTimes(1);
    expect(ledger.insertEntries).toHaveBeenCalledWith(TX, [
      {
        accountType: 'float',
        accountId: 'attendant-1',
        kind: 'float_approval',
        amountCents: 45_000_50,
        balanceAfterCents: 120_000_50,
        reference: 'request-1',
        actorId: 'manager-1',
      },
    ]);
  });

  it('announces the approved amount to the attendant and the manager (float.updated)', async () => {
    await sut.assign(manager, { attendantId: 'attendant-1', amount: 45_000.5, requestId: 'request-1' }, call);

    expect(events.emit).toHaveBeenCalledWith('float.updated', {
      attendantId: 'attendant-1',
      managerId: 'manager-1',
      event: {
        requestId: 'request-1',
        status: 'approved',
        approvedAmount: 45_000.5,
        approvedAt: '2026-04-01T07:00:00.000Z',
      },
    });
  });

  it('approves the attendant’s oldest pending request when none is named', async () => {
    requests.lockOldestPending.mockResolvedValue(pending({ id: 'oldest' }));

    await sut.assign(manager, { attendantId: 'attendant-1', amount: 100 }, call);

    expect(requests.lockOldestPending).toHaveBeenCalledWith(TX, 'attendant-1');
    expect(requests.findVisible).not.toHaveBeenCalled();
    expect(requests.approve).toHaveBeenCalledWith(TX, 'oldest', 100_00, 'manager-1');
  });

  it('says that the attendant has nothing pending, and moves no money', async () => {
    requests.lockOldestPending.mockResolvedValue(null);

    await expect(sut.assign(manager, { attendantId: 'attendant-1', amount: 100 }, call)).rejects.toMatchObject({
      code: ErrorCode.FloatRequestNotFound,
      message: 'No pending float request for this attendant',
    });
    expect(ledger.creditFloat).not.toHaveBeenCalled();
  });

  it('refuses an attendant the manager cannot see', async () => {
    requests.findAttendant.mockResolvedValue(null);

    await expect(
      sut.assign(manager, { attendantId: 'attendant-9', amount: 100, requestId: 'request-1' }, call),
    ).rejects.toMatchObject({ code: ErrorCode.AttendantNotFound, status: 404 });
    expect(requests.approve).not.toHaveBeenCalled();
  });

  it('refuses a request of another attendant as not found, so that it cannot credit this one', async () => {
    requests.findVisible.mockResolvedValue(pending({ attendantId: 'attendant-2' }));

    await expect(
      sut.assign(manager, { attendantId: 'attendant-1', amount: 100, requestId: 'request-1' }, call),
    ).rejects.toMatchObject({ code: ErrorCode.FloatRequestNotFound, status: 404 });
    expect(requests.approve).not.toHaveBeenCalled();
    expect(ledger.creditFloat).not.toHaveBeenCalled();
  });

  it('approves a request only once: one already decided is refused before any float moves', async () => {
    requests.approve.mockResolvedValue(null);

    await expect(
      sut.assign(manager, { attendantId: 'attendant-1', amount: 100, requestId: 'request-1' }, call),
    ).rejects.toMatchObject({ code: ErrorCode.FloatRequestNotPending, status: 409 });
    expect(ledger.creditFloat).not.toHaveBeenCalled();
    expect(events.emit).not.toHaveBeenCalled();
  });

  it('refuses an approval that would take the float past the largest balance, writing no entry', async () => {
    ledger.creditFloat.mockResolvedValue(null);

    await expect(
      sut.assign(manager, { attendantId: 'attendant-1', amount: 100, requestId: 'request-1' }, call),
    ).rejects.toMatchObject({ code: ErrorCode.BalanceLimitExceeded, status: 422 });
    expect(ledger.insertEntries).not.toHaveBeenCalled();
    expect(events.emit).not.toHaveBeenCalled();
  });
});

describe('FloatService.reject', () => {
  it('refuses a request that is no longer pending, and tells nobody', async () => {
    const { sut, fakes } = createTestService(FloatService, idempotencyInPlace);
    fakes.get(FloatRepository).findVisible.mockResolvedValue(pending({ status: 'approved' }));
    fakes.get(FloatRepository).reject.mockResolvedValue(null);

    await expect(sut.reject(manager, 'request-1', call)).rejects.toMatchObject({
      code: ErrorCode.FloatRequestNotPending,
    });
    expect(fakes.get(DomainEvents).emit).not.toHaveBeenCalled();
  });

  it('moves no money', async () => {
    const { sut, fakes } = createTestService(FloatService, idempotencyInPlace);
    fakes.get(FloatRepository).findVisible.mockResolvedValue(pending());
    fakes.get(FloatRepository).reject.mockResolvedValue({ ...pending(), status: 'rejected', decidedAt: new Date() });

    await expect(sut.reject(manager, 'request-1', call)).resolves.toEqual({ message: 'Float request rejected' });
    const ledger = fakes.get(LedgerService);
    expect(ledger.creditFloat).not.toHaveBeenCalled();
    expect(ledger.insertEntries).not.toHaveBeenCalled();
  });
});
