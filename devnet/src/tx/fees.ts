// Resource fees from the testnet fee schedule (soroban-rpc-notes §6.4) and the
// per-transaction limits of §6.3. Rent is a simplified linear charge on the bytes
// and lifetime of entries a call creates; the real formula is not reproduced.

export const LIMITS = {
  instructions: 400_000_000,
  diskReadEntries: 200,
  diskReadBytes: 200_000,
  writeEntries: 200,
  writeBytes: 132_096,
  footprintEntries: 400,
  txSizeBytes: 132_096,
};

export const BASE_FEE = 100;

export type Resources = {
  instructions: number;
  diskReadEntries: number;
  diskReadBytes: number;
  writeEntries: number;
  writeBytes: number;
  txSizeBytes: number;
};

const kib = (bytes: number, perKib: number) => Math.ceil((bytes * perKib) / 1024);

export function nonRefundableFee(r: Resources): number {
  return (
    Math.ceil((r.instructions * 7) / 10_000) +
    r.diskReadEntries * 1563 +
    kib(r.diskReadBytes, 447) +
    r.writeEntries * 2500 +
    kib(r.writeBytes, 875) +
    kib(r.txSizeBytes, 406) +
    kib(r.txSizeBytes + 300, 4059)
  );
}

/** Events plus return value bytes, and rent for newly created entries. */
export function refundableFee(eventBytes: number, created: { bytes: number; ledgers: number }[]): number {
  const rent = created.reduce((sum, e) => sum + Math.ceil((e.bytes * e.ledgers) / 1000), 0);
  return kib(eventBytes, 5000) + rent;
}

export function exceedsLimits(r: Resources, footprintEntries: number): boolean {
  return (
    r.instructions > LIMITS.instructions ||
    r.diskReadEntries > LIMITS.diskReadEntries ||
    r.diskReadBytes > LIMITS.diskReadBytes ||
    r.writeEntries > LIMITS.writeEntries ||
    r.writeBytes > LIMITS.writeBytes ||
    footprintEntries > LIMITS.footprintEntries
  );
}
