// Stellar strkey checks for the request schemas, without the SDK (only chain/ loads it): a G…
// account or C… contract address is 56 base32 characters encoding a version byte, 32 key bytes
// and a CRC16-XModem checksum (little-endian), SEP-0023. 56 characters are exactly 35 bytes, so
// there are no spare bits to be non-canonical. test/unit/stellar-address.test.ts holds this to the
// SDK's StrKey on random keys and on every one-character change of them.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i]));
const ACCOUNT_VERSION = 6 << 3; // 'G'
const CONTRACT_VERSION = 2 << 3; // 'C'

function crc16xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function hasVersion(text: unknown, version: number): boolean {
  if (typeof text !== 'string' || text.length !== 56) return false;
  const bytes = new Uint8Array(35);
  let acc = 0;
  let bits = 0;
  let n = 0;
  for (const c of text) {
    const v = VALUE.get(c);
    if (v === undefined) return false;
    acc = (acc << 5) | v;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[n++] = (acc >> bits) & 0xff;
    }
  }
  if (bytes[0] !== version) return false;
  const crc = crc16xmodem(bytes.subarray(0, 33));
  return bytes[33] === (crc & 0xff) && bytes[34] === crc >> 8;
}

/** A G… account address (ed25519 public key), checksum included. */
export const isAccountAddress = (text: unknown): boolean => hasVersion(text, ACCOUNT_VERSION);

/** A C… contract address, checksum included. */
export const isContractAddress = (text: unknown): boolean => hasVersion(text, CONTRACT_VERSION);
