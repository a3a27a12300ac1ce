// The request schemas check G… and C… addresses without the SDK (schemas/stellar-address.ts); the
// SDK's StrKey is the reference here, on random keys and on every one-character change of them.
import { Keypair, StrKey } from '@stellar/stellar-sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAccountAddress, isContractAddress } from '../../src/schemas/stellar-address.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 });

function agreeOnMutations(address: string): void {
  for (let i = 0; i < address.length; i++) {
    for (const c of [ALPHABET[(ALPHABET.indexOf(address[i]) + 1) % 32], 'a', '0']) {
      const changed = address.slice(0, i) + c + address.slice(i + 1);
      expect(isAccountAddress(changed), changed).toBe(StrKey.isValidEd25519PublicKey(changed));
      expect(isContractAddress(changed), changed).toBe(StrKey.isValidContract(changed));
    }
  }
}

describe('stellar addresses without the SDK', () => {
  it('agrees with StrKey on accounts, contracts and every one-character change', () => {
    fc.assert(
      fc.property(bytes32, (raw) => {
        const account = StrKey.encodeEd25519PublicKey(Buffer.from(raw));
        const contract = StrKey.encodeContract(Buffer.from(raw));
        expect(isAccountAddress(account)).toBe(true);
        expect(isContractAddress(contract)).toBe(true);
        expect(isAccountAddress(contract)).toBe(false);
        expect(isContractAddress(account)).toBe(false);
        agreeOnMutations(account);
        agreeOnMutations(contract);
      }),
      { numRuns: 50 },
    );
  });

  it('refuses other strkeys, wrong lengths and non-strings', () => {
    const kp = Keypair.random();
    for (const other of [
      kp.secret(),
      StrKey.encodeMed25519PublicKey(Buffer.alloc(40, 1)),
      StrKey.encodeSha256Hash(Buffer.alloc(32, 2)),
    ]) {
      expect(isAccountAddress(other), other).toBe(false);
      expect(isContractAddress(other), other).toBe(false);
    }
    const g = kp.publicKey();
    for (const bad of ['', g.slice(0, -1), `${g}A`, g.toLowerCase(), ` ${g.slice(1)}`, undefined, 42]) {
      expect(isAccountAddress(bad)).toBe(false);
    }
  });
});
