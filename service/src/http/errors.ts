// The one code -> status table, and the one error body shape: `{ "error": "..." }` (plus the
// fields a BillingError carries in `details`, e.g. `code` on a rejected pull). Every error the
// service answers goes through errorResponse, so no route formats an error by hand.
import type { BillingErrorCode } from '../billing/errors.ts';
import type { BillingError } from '../billing/errors.ts';

export const STATUS_BY_CODE: Record<BillingErrorCode, number> = {
  VALIDATION: 400,
  INVALID_SECRET: 400,
  SECRET_MISMATCH: 401,
  API_KEY_REQUIRED: 401,
  API_KEY_INVALID: 401,
  OPERATOR_ONLY: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  IDEMPOTENCY_MISMATCH: 422,
  CONTRACT_ID_MISSING: 500,
  DB_NOT_INITIALIZED: 500,
  PULL_REJECTED: 500,
  CHAIN_UNAVAILABLE: 500,
  DATABASE: 500,
  DATABASE_UNAVAILABLE: 500,
  SIGNING_KEY_STORE: 500,
};

export interface ErrorBody {
  error: string;
  [extra: string]: unknown;
}

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
}

export const GENERIC_500 = 'Internal Server Error';

/** `error` comes first and cannot be overridden by details. */
export function errorBody(message: string, details?: Record<string, unknown>): ErrorBody {
  return details ? Object.assign({ error: message }, details, { error: message }) : { error: message };
}

export function billingErrorResponse(err: BillingError): ErrorResponse {
  return { status: STATUS_BY_CODE[err.code], body: errorBody(err.message, err.details) };
}

/** Fastify's own 4xx (malformed JSON, 413, 415, ...) keep their status and their message. */
export function frameworkErrorResponse(err: {
  statusCode?: number;
  code?: string;
  message: string;
}): ErrorResponse | undefined {
  const status = err.statusCode;
  if (status === undefined || status < 400 || status >= 500) return undefined;
  // Fastify's text alone does not say what would have been accepted.
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return { status, body: errorBody(`${err.message}: send Content-Type: application/json`) };
  // Fastify's text would echo the whole path back (app.ts raises the limit so that ids never meet it).
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return { status, body: errorBody('URI Too Long') };
  const message = err.message;
  return { status, body: errorBody(message) };
}
