// Which merchant's objects a request may see. A merchant key sees its own merchant's objects and
// nothing else: another merchant's object answers 404 with that object's own not-found message,
// exactly as if it did not exist, so ids of other merchants cannot even be confirmed. Anonymous
// (open mode), operator and system actors see everything.
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';

type Thing = Parameters<typeof notFound>[0];

/** The merchant this request is confined to; undefined when it may see every merchant. */
export const scopedMerchant = (ctx: Ctx): string | undefined =>
  ctx.actor.kind === 'merchant' ? ctx.actor.merchantId : undefined;

export const sees = (ctx: Ctx, merchantId: string): boolean => {
  const only = scopedMerchant(ctx);
  return only === undefined || only === merchantId;
};

/** Throws `<what> not found` unless the actor may see objects of merchantId. */
export function mustSee(ctx: Ctx, merchantId: string, what: Thing): void {
  if (!sees(ctx, merchantId)) throw notFound(what);
}
