// getEvents: contract events from applied transactions, filtered by contract id and
// topic segments ("*" one, "**" any rest), paged by startLedger or cursor (§1.10).
import { invalidParams, type Method } from '../jsonrpc.ts';
import type { EventRecord } from '../../ledger/history.ts';

type Filter = { type?: string; contractIds?: string[]; topics?: string[][] };

export const getEvents: Method = (net, params) => {
  const pagination = (params.pagination ?? {}) as { cursor?: unknown; limit?: unknown };
  const limit = pagination.limit === undefined ? 100 : Number(pagination.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw invalidParams('limit must be between 1 and 10000');
  const latest = net.latest.sequence;
  const cursor = pagination.cursor === undefined ? undefined : String(pagination.cursor);
  const start = params.startLedger === undefined ? undefined : Number(params.startLedger);
  if ((cursor === undefined) === (start === undefined)) {
    throw invalidParams('either startLedger or cursor must be set, but not both');
  }
  const oldest = net.oldest.sequence;
  if (start !== undefined && (!Number.isInteger(start) || start < oldest || start > latest)) {
    throw invalidParams(`startLedger must be between the oldest ledger: ${oldest} and the latest ledger: ${latest}`);
  }
  const end = params.endLedger === undefined ? Infinity : Number(params.endLedger);
  const filters = parseFilters(params.filters);

  const events: EventRecord[] = [];
  for (const e of net.events) {
    if (start !== undefined ? e.ledger < start : e.id <= cursor!) continue;
    if (e.ledger >= end) break;
    if (filters.length > 0 && !filters.some((f) => matches(f, e))) continue;
    events.push(e);
    if (events.length >= limit) break;
  }
  return {
    events: events.map((e) => ({ type: 'contract', ...e, inSuccessfulContractCall: true })),
    cursor:
      events.at(-1)?.id ?? `${(BigInt(Math.min(end, latest + 1)) << 32n).toString().padStart(19, '0')}-0000000000`,
    latestLedger: latest,
    oldestLedger: oldest,
    latestLedgerCloseTime: String(net.latest.closeTime),
    oldestLedgerCloseTime: String(net.oldest.closeTime),
  };
};

function parseFilters(raw: unknown): Filter[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > 5) throw invalidParams('filters must be an array of at most 5 filters');
  return raw.map((f) => {
    const filter = f as Filter;
    if (filter.type !== undefined && !['contract', 'system', 'diagnostic'].includes(filter.type)) {
      throw invalidParams(`invalid filter type: ${filter.type}`);
    }
    if ((filter.contractIds?.length ?? 0) > 5) throw invalidParams('maximum 5 contract IDs per filter');
    return filter;
  });
}

function matches(f: Filter, e: EventRecord): boolean {
  if (f.type !== undefined && f.type !== 'contract') return false;
  if (f.contractIds?.length && !f.contractIds.includes(e.contractId)) return false;
  if (!f.topics?.length) return true;
  return f.topics.some((segments) => topicMatches(segments, e.topic));
}

function topicMatches(segments: string[], topic: string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    if (segments[i] === '**') return true;
    if (i >= topic.length) return false;
    if (segments[i] !== '*' && segments[i] !== topic[i]) return false;
  }
  return segments.length === topic.length;
}
