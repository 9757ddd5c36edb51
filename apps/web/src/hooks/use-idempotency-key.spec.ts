import { describe, expect, it } from '@jest/globals';
import { renderHook } from '@testing-library/react';
import { ApiError, NetworkError } from '@/lib/api-client';
import { useIdempotencyKey } from './use-idempotency-key';

const body = { attendantId: 'a-1', amount: 5000 };

function setUp() {
  return renderHook(() => useIdempotencyKey()).result;
}

describe('the Idempotency-Key of a form that moves money', () => {
  it('is a fresh uuid for each new submission', () => {
    const result = setUp();
    const first = result.current.keyFor(body);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    result.current.settle();
    expect(result.current.keyFor(body)).not.toBe(first);
  });

  it('is reused when the same body is sent again after no answer came', () => {
    const result = setUp();
    const first = result.current.keyFor(body);

    result.current.settle(new NetworkError(new Error('offline')));
    expect(result.current.keyFor({ ...body })).toBe(first);
  });

  it('is reused after a server error, whose outcome is unknown too', () => {
    const result = setUp();
    const first = result.current.keyFor(body);

    result.current.settle(new ApiError(503, null, 'Service Unavailable'));
    expect(result.current.keyFor(body)).toBe(first);
  });

  it('is new after the server refused the request, since nothing moved', () => {
    const result = setUp();
    const first = result.current.keyFor(body);

    result.current.settle(new ApiError(400, { message: 'Insufficient float' }, ''));
    expect(result.current.keyFor(body)).not.toBe(first);
  });

  it('is new when the body changed, even after no answer came', () => {
    const result = setUp();
    const first = result.current.keyFor(body);

    result.current.settle(new NetworkError(new Error('offline')));
    expect(result.current.keyFor({ ...body, amount: 6000 })).not.toBe(first);
  });
});
