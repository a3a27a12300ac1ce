// The one code -> status table and the error body rules.
import { describe, expect, it } from 'vitest';
import { BillingError } from '../../src/billing/errors.ts';
import type { BillingErrorCode } from '../../src/billing/errors.ts';
import { billingErrorResponse, errorBody } from '../../src/http/errors.ts';

describe('BillingError -> HTTP', () => {
  it.each([
    ['VALIDATION', 400],
    ['INVALID_SECRET', 400],
    ['SECRET_MISMATCH', 401],
    ['NOT_FOUND', 404],
    ['CONTRACT_ID_MISSING', 500],
    ['DB_NOT_INITIALIZED', 500],
    ['PULL_REJECTED', 500],
    ['CHAIN_UNAVAILABLE', 500],
    ['DATABASE', 500],
  ] as [BillingErrorCode, number][])('%s -> %i with the message as error', (code, status) => {
    expect(billingErrorResponse(new BillingError(code, 'why'))).toEqual({ status, body: { error: 'why' } });
  });

  it('details are merged into the body, error first and not overridable', () => {
    const err = new BillingError('PULL_REJECTED', 'Too early to pull funds: HostError', {
      code: 'too_early',
      next_billing_date: '2030-01-01T00:00:00.000Z',
      error: 'ignored',
    });
    const { body } = billingErrorResponse(err);
    expect(body).toEqual({
      error: 'Too early to pull funds: HostError',
      code: 'too_early',
      next_billing_date: '2030-01-01T00:00:00.000Z',
    });
    expect(Object.keys(body)[0]).toBe('error');
  });

  it('errorBody without details is just { error }', () => {
    expect(errorBody('x')).toEqual({ error: 'x' });
  });
});
