// GET /merchants/{id}/pulls and GET /merchants/{id}/pulls/daily-totals: a merchant's pulls across
// all its subscriptions, for its books (the dashboard's CSV export) and its revenue per day. The
// merchant must exist and be live; another merchant's is 404 Merchant not found (scope.ts).
import { mustSee } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { BillingError, notFound } from '../errors.ts';
import type { MerchantsRepo } from '../merchants/merchants-port.ts';
import type { Page, PageRequest } from '../paging.ts';
import type { DailyTotal, MerchantPullsFilter, MerchantPullsRepo } from './merchant-pulls-port.ts';
import type { PullRecord } from './pulls-port.ts';

const DAY_MS = 86_400_000;
/** The totals' window when none is given, ending now. */
export const DEFAULT_TOTALS_DAYS = 30;
/** A year and a day: a chart of daily bars, not an export (the listing is). */
export const MAX_TOTALS_DAYS = 366;

type Deps = { merchants: Pick<MerchantsRepo, 'findById'>; merchantPulls: MerchantPullsRepo };

async function liveMerchant(deps: Deps, ctx: Ctx, id: string) {
  mustSee(ctx, id, 'Merchant');
  const merchant = await deps.merchants.findById(id);
  if (!merchant || merchant.deleted_at) throw notFound('Merchant');
  return merchant;
}

function checkRange(from: Date | undefined, to: Date | undefined) {
  if (from && to && from.getTime() >= to.getTime())
    throw new BillingError('VALIDATION', 'Invalid input on to: to must be later than from');
}

export function makeListMerchantPulls(deps: Deps) {
  return async function listMerchantPulls({
    ctx,
    input,
  }: {
    ctx: Ctx;
    input: { filter: MerchantPullsFilter; page: PageRequest };
  }): Promise<Page<PullRecord>> {
    checkRange(input.filter.from, input.filter.to);
    const merchant = await liveMerchant(deps, ctx, input.filter.merchant_id);
    return deps.merchantPulls.list({ ...input.filter, merchant_id: merchant.id }, input.page);
  };
}

export function makeMerchantDailyTotals(deps: Deps & { clock: { now(): Date } }) {
  return async function merchantDailyTotals({
    ctx,
    input,
  }: {
    ctx: Ctx;
    input: { merchant_id: string; from?: Date; to?: Date };
  }): Promise<{ from: Date; to: Date; days: DailyTotal[] }> {
    const to = input.to ?? deps.clock.now();
    const from = input.from ?? new Date(to.getTime() - DEFAULT_TOTALS_DAYS * DAY_MS);
    checkRange(from, to);
    if (to.getTime() - from.getTime() > MAX_TOTALS_DAYS * DAY_MS)
      throw new BillingError('VALIDATION', `Invalid input on from: the window is at most ${MAX_TOTALS_DAYS} days`);
    const merchant = await liveMerchant(deps, ctx, input.merchant_id);
    return { from, to, days: await deps.merchantPulls.dailyTotals(merchant.id, from, to) };
  };
}
