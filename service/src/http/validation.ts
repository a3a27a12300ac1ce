// Request validation with Zod inside Fastify: every route declares Zod schemas for body and params,
// Fastify runs them before the handler, and a failure becomes one message naming the first failing
// field only (spec section 7), e.g. "Invalid input on name: name cannot be empty".
import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { firstIssueMessage, InvalidInputError } from '../schemas/invalid-input.ts';

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema }) => {
  return (data: unknown) => {
    const parsed = schema.safeParse(data);
    return parsed.success ? { value: parsed.data } : { error: new InvalidInputError(firstIssueMessage(parsed.error)) };
  };
};
