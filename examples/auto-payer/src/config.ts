import { parseAmount } from '@meter/core';
import { z } from 'zod';

/** The auto-payer's settings (environment), with the defaults docs/live-mode.md lists. */

export class AutoPayerConfigError extends Error {
  override name = 'AutoPayerConfigError';
}

const httpUrl = (name: string) =>
  z.string().refine((v) => {
    try {
      return ['http:', 'https:'].includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, `${name} must be an http(s) URL`);

const schema = z.object({
  API_URL: httpUrl('API_URL').default('http://localhost:3000'),
  API_EMAIL: z.string().min(1).default('demo@meter.local'),
  API_PASSWORD: z.string().min(1).default('demo-password'),
  PAYER_RPC_URL: httpUrl('PAYER_RPC_URL').default('http://127.0.0.1:8237'),
  POLL_MS: z
    .string()
    .regex(/^\d+$/, 'POLL_MS must be a whole number of milliseconds')
    .transform(Number)
    .refine((n) => n >= 100 && n <= 3_600_000, 'POLL_MS must be between 100 and 3600000')
    .default(3000),
  MAX_PAYMENT_CKB: z
    .string()
    .regex(/^\d+(\.\d{1,8})?$/, 'MAX_PAYMENT_CKB must be a decimal number of CKB, e.g. 1000 or 0.5')
    .default('1000'),
  STATE_FILE: z.string().min(1).default('./data/auto-payer-state.json'),
});

export interface AutoPayerConfig {
  apiUrl: string;
  email: string;
  password: string;
  payerRpcUrl: string;
  pollMs: number;
  /** MAX_PAYMENT_CKB in shannons. */
  maxPayment: bigint;
  maxPaymentCkb: string;
  stateFile: string;
}

/** Parses the environment; one AutoPayerConfigError with a single readable line on a bad value. */
export function loadAutoPayerConfig(env: Record<string, string | undefined>): AutoPayerConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new AutoPayerConfigError(
      `Invalid auto-payer configuration: ${issue.path.join('.')}: ${issue.message}`,
    );
  }
  const c = result.data;
  return {
    apiUrl: c.API_URL.replace(/\/+$/, ''),
    email: c.API_EMAIL,
    password: c.API_PASSWORD,
    payerRpcUrl: c.PAYER_RPC_URL,
    pollMs: c.POLL_MS,
    maxPayment: parseAmount(c.MAX_PAYMENT_CKB, 'CKB'),
    maxPaymentCkb: c.MAX_PAYMENT_CKB,
    stateFile: c.STATE_FILE,
  };
}
