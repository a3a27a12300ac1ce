// POST /merchants, GET /merchants/{id}, DELETE /merchants/{id} (product.md), on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateMerchantResponse, DeleteMerchantResponse, GetMerchantResponse } from '../../src/schemas/merchants.ts';
import { TARGETS, startApp } from '../support/app.ts';
import type { TestApp } from '../support/app.ts';
import { createMerchant, del, get, newSecret, newWallet, post, unknownId } from '../support/factories.ts';

describe.each(TARGETS)('merchants on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t.close());

  describe('POST /merchants', () => {
    it('201 with the merchant, id and created_at assigned', async () => {
      const wallet = newWallet();
      const res = await post(t.app, '/merchants', { name: 'Acme Ltd', wallet_address: wallet });
      expect(res.status).toBe(201);
      const body = CreateMerchantResponse.parse(res.body);
      expect(body.message).toBe('Merchant created');
      expect(body.merchant).toMatchObject({ name: 'Acme Ltd', wallet_address: wallet });
      expect(body.merchant.created_at).toMatch(/Z$/);
    });

    const wallet = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
    it.each([
      [{ wallet_address: wallet }, 'Invalid input on name: Invalid input: expected string, received undefined'],
      [{ name: 7, wallet_address: wallet }, 'Invalid input on name: Invalid input: expected string, received number'],
      [{ name: '', wallet_address: wallet }, 'Invalid input on name: name cannot be empty'],
      [{ name: '   ', wallet_address: wallet }, 'Invalid input on name: name cannot be empty'],
      [{ name: 'A' }, 'Invalid input on wallet_address: Invalid input: expected string, received undefined'],
      [
        { name: 'A', wallet_address: 'nope' },
        'Invalid input on wallet_address: must be a valid Stellar Ed25519 public address',
      ],
      // A secret seed is not an address, whatever its checksum.
      [
        { name: 'A', wallet_address: newSecret() },
        'Invalid input on wallet_address: must be a valid Stellar Ed25519 public address',
      ],
      // One character changed: the checksum no longer matches.
      [
        { name: 'A', wallet_address: `${wallet.slice(0, -1)}G` },
        'Invalid input on wallet_address: must be a valid Stellar Ed25519 public address',
      ],
      // Only the first failing field is reported.
      [{ name: ' ', wallet_address: 'nope' }, 'Invalid input on name: name cannot be empty'],
      [{}, 'Invalid input on name: Invalid input: expected string, received undefined'],
    ])('400 for %j', async (payload, message) => {
      const res = await post(t.app, '/merchants', payload);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: message });
    });
  });

  describe('GET /merchants/{id}', () => {
    it('200 with the merchant', async () => {
      const merchant = await createMerchant(t.app);
      const res = await get(t.app, `/merchants/${merchant.id}`);
      expect(res.status).toBe(200);
      expect(GetMerchantResponse.parse(res.body)).toEqual({ merchant });
    });

    it('404 Merchant not found for a well-formed unknown id', async () => {
      expect(await get(t.app, `/merchants/${unknownId()}`)).toEqual({
        status: 404,
        body: { error: 'Merchant not found' },
      });
    });

    it('400 for a malformed id', async () => {
      const res = await get(t.app, '/merchants/123');
      expect(res).toEqual({ status: 400, body: { error: 'Invalid input on id: id parameter must be a valid UUID' } });
    });
  });

  describe('DELETE /merchants/{id} (soft delete)', () => {
    it('200 with deleted_at; afterwards GET and a second DELETE are 404, the row stays', async () => {
      const merchant = await createMerchant(t.app);
      t.clock.set('2031-05-06T07:08:09.000Z');
      const res = await del(t.app, `/merchants/${merchant.id}`);
      expect(res.status).toBe(200);
      const body = DeleteMerchantResponse.parse(res.body);
      expect(body).toMatchObject({ message: 'Merchant deleted', merchant });
      expect(body.merchant.deleted_at).toMatch(/Z$/);

      expect(await get(t.app, `/merchants/${merchant.id}`)).toEqual({
        status: 404,
        body: { error: 'Merchant not found' },
      });
      expect(await del(t.app, `/merchants/${merchant.id}`)).toEqual({
        status: 404,
        body: { error: 'Merchant not found' },
      });
      // History is never erased.
      const rows = await t.deps.db.query('SELECT deleted_at FROM merchants WHERE id = $1', [merchant.id]);
      expect(rows.rows).toHaveLength(1);
      expect(rows.rows[0].deleted_at).toBeInstanceOf(Date);
    });

    it('404 for a well-formed unknown id, 400 for a malformed one', async () => {
      expect(await del(t.app, `/merchants/${unknownId()}`)).toEqual({
        status: 404,
        body: { error: 'Merchant not found' },
      });
      expect(await del(t.app, '/merchants/not-a-uuid')).toEqual({
        status: 400,
        body: { error: 'Invalid input on id: id parameter must be a valid UUID' },
      });
    });
  });
});
