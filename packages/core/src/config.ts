import { z } from 'zod';

/**
 * The environment settings of SPEC.md and ARCHITECTURE.md, parsed once. Library users pass the
 * same values as typed options; servers call loadConfig(process.env) and stop on ConfigError.
 */
const intFrom = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

const url = (name: string) =>
  z.string().refine((v) => {
    try {
      return ['http:', 'https:'].includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, `${name} must be an http(s) URL such as http://127.0.0.1:8227`);

const envSchema = z.object({
  CHANNEL_PROVIDER: z
    .enum(['simulated', 'live'], { message: 'CHANNEL_PROVIDER must be "simulated" or "live"' })
    .default('simulated'),
  CHANNEL_RPC_URL: url('CHANNEL_RPC_URL').optional(),
  CHANNEL_PREFLIGHT_RPC_URL: url('CHANNEL_PREFLIGHT_RPC_URL').optional(),
  CHANNEL_CURRENCY: z.enum(['Fibt', 'Fibb', 'Fibd', 'CKB']).optional(),
  CHANNEL_INVOICE_EXPIRY_SECS: intFrom('CHANNEL_INVOICE_EXPIRY_SECS', 60, 30 * 24 * 3600).default(3600),
  CHANNEL_EXPLORER_URL: url('CHANNEL_EXPLORER_URL').default('https://testnet.explorer.nervos.org'),
  DATABASE_URL: z.string().min(1).default('sqlite:./data/meter.db'),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  JWT_TTL_SECS: intFrom('JWT_TTL_SECS', 60, 30 * 24 * 3600).default(12 * 3600),
  PORT: intFrom('PORT', 0, 65535).default(3000),
  ALLOW_REGISTRATION: z
    .enum(['true', 'false'], { message: 'ALLOW_REGISTRATION must be true or false' })
    .default('true'),
  WEBHOOK_TIMEOUT_MS: intFrom('WEBHOOK_TIMEOUT_MS', 100, 120_000).default(10_000),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: z
    .enum(['true', 'false'], { message: 'WEBHOOK_ALLOW_PRIVATE_NETWORKS must be true or false' })
    .default('false'),
  WEBHOOK_LEASE_MS: intFrom('WEBHOOK_LEASE_MS', 1000, 3600_000).optional(),
  WEBHOOK_POLL_MS: intFrom('WEBHOOK_POLL_MS', 50, 600_000).default(1000),
  WEBHOOK_DISPATCHER: z
    .enum(['inline', 'off'], { message: 'WEBHOOK_DISPATCHER must be "inline" or "off"' })
    .default('inline'),
});

export type MeterConfig = z.output<typeof envSchema> & { ALLOW_REGISTRATION: 'true' | 'false' };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws one ConfigError whose message is a single readable line. */
export function loadConfig(env: Record<string, string | undefined>): MeterConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const first = result.error.issues[0]!;
    throw new ConfigError(
      `Invalid configuration: ${first.path.join('.') || 'environment'}: ${first.message}`,
    );
  }
  const config = result.data;
  if (config.CHANNEL_PROVIDER === 'live' && !config.CHANNEL_RPC_URL) {
    throw new ConfigError('Invalid configuration: CHANNEL_RPC_URL is required when CHANNEL_PROVIDER=live');
  }
  if (config.CHANNEL_PROVIDER === 'live' && config.CHANNEL_CURRENCY === 'CKB') {
    throw new ConfigError(
      'Invalid configuration: CHANNEL_CURRENCY must be Fibt (testnet), Fibb (mainnet) or Fibd (devnet) when CHANNEL_PROVIDER=live',
    );
  }
  return config;
}
