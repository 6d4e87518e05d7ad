import { z } from 'zod';
import { invalid } from '../domain/errors.js';
import { ASSET_CODES, type AssetCode } from '../domain/money.js';
import { MAX_QUANTITY, PRICING_MODELS } from '../domain/pricing.js';
import { type JsonObject, WEBHOOK_EVENT_TYPES } from '../domain/types.js';

/**
 * Input schemas: the one place where what callers send is checked. The service parses with
 * them, so core-direct callers and HTTP callers get the same validation and the same errors.
 */

const METADATA_MAX_BYTES = 16 * 1024;

const text = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) => z.string().trim().max(max).nullish();

export const assetSchema = z.string().refine((v): v is AssetCode => (ASSET_CODES as string[]).includes(v), {
  message: `unknown asset; known assets: ${ASSET_CODES.join(', ')}`,
}) as unknown as z.ZodType<AssetCode>;

export const metadataSchema = z.custom<JsonObject>(
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Buffer.byteLength(JSON.stringify(v), 'utf8') <= METADATA_MAX_BYTES,
  { message: `metadata must be a JSON object of at most ${METADATA_MAX_BYTES} bytes` },
);

/** Money crosses the edges as a decimal string; the asset decides how many decimals it may have. */
export const amountString = z.string().max(40);

export const slugSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'slug: lowercase letters, digits, "-" and "_", 1-63 characters');

export const metricKeySchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/,
    'metricKey: letters, digits, "_", ".", ":" and "-", 1-100 characters',
  );

const webhookUrl = z
  .string()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'webhookUrl must be an http(s) URL');

const webhookSecret = z.string().min(16).max(256);
const webhookEvents = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((events) => [...new Set(events)]);
const email = z.string().trim().max(320).pipe(z.email());

export const registerSchema = z.object({
  email,
  password: z.string().min(8).max(200),
  name: text(200),
});

export const loginSchema = z.object({ email: z.string().max(320), password: z.string().max(200) });

export const createApiKeySchema = z.object({ name: text(200) });

export const createServiceSchema = z.object({
  name: text(200),
  slug: slugSchema,
  description: optionalText(2000),
  webhookUrl: webhookUrl.nullish(),
  webhookSecret: webhookSecret.optional(),
  webhookEvents: webhookEvents.optional(),
  defaultAsset: assetSchema.optional(),
});

export const updateServiceSchema = z.object({
  name: text(200).optional(),
  slug: slugSchema.optional(),
  description: optionalText(2000),
  webhookUrl: webhookUrl.nullish(),
  webhookSecret: webhookSecret.optional(),
  webhookEvents: webhookEvents.optional(),
  defaultAsset: assetSchema.optional(),
});

export const createPricingRuleSchema = z.object({
  name: text(200),
  metricKey: metricKeySchema,
  unitName: text(100),
  pricingModel: z.enum(PRICING_MODELS),
  price: z.string().max(40),
  asset: assetSchema.optional(),
  active: z.boolean().optional(),
});

export const updatePricingRuleSchema = z.object({
  name: text(200).optional(),
  unitName: text(100).optional(),
  pricingModel: z.enum(PRICING_MODELS).optional(),
  price: z.string().max(40).optional(),
  active: z.boolean().optional(),
});

export const createCustomerSchema = z.object({
  externalId: text(200),
  name: optionalText(200),
  email: email.nullish(),
  metadata: metadataSchema.optional(),
});

export const updateCustomerSchema = z.object({
  externalId: text(200).optional(),
  name: optionalText(200),
  email: email.nullish(),
  metadata: metadataSchema.optional(),
});

export const createPaymentRequestSchema = z.object({
  customerId: text(100),
  amount: amountString,
  asset: assetSchema.default('CKB'),
  metadata: metadataSchema.optional(),
});

export const recordUsageSchema = z.object({
  service: text(100),
  customer: text(200),
  metricKey: metricKeySchema,
  quantity: z
    .number()
    .refine((q) => Number.isFinite(q) && q > 0, 'quantity must be a positive number')
    .refine((q) => q <= MAX_QUANTITY, `quantity must be at most ${MAX_QUANTITY}`),
  idempotencyKey: z.string().min(1).max(255),
  metadata: metadataSchema.optional(),
});

export const preflightSchema = z.object({ invoice: z.string().trim().min(1).max(8192) });

const nodeErrorObject = z.custom<Record<string, unknown>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && JSON.stringify(v).length <= 16 * 1024,
  { message: 'error must be a string or a node error object of at most 16 KiB' },
);

export const translateErrorSchema = z.object({
  error: z.union([
    z
      .string()
      .trim()
      .min(1)
      .max(16 * 1024),
    nodeErrorObject,
  ]),
});

export const retryFailedSchema = z.object({
  since: z.iso.datetime({ offset: true, message: 'since must be an ISO-8601 timestamp' }),
});

export type RegisterInput = z.input<typeof registerSchema>;
export type LoginInput = z.input<typeof loginSchema>;
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;
export type CreateServiceInput = z.input<typeof createServiceSchema>;
export type UpdateServiceInput = z.input<typeof updateServiceSchema>;
export type CreatePricingRuleInput = z.input<typeof createPricingRuleSchema>;
export type UpdatePricingRuleInput = z.input<typeof updatePricingRuleSchema>;
export type CreateCustomerInput = z.input<typeof createCustomerSchema>;
export type UpdateCustomerInput = z.input<typeof updateCustomerSchema>;
export type CreatePaymentRequestInput = z.input<typeof createPaymentRequestSchema>;
export type RecordUsageInput = z.input<typeof recordUsageSchema>;
export type PreflightInput = z.input<typeof preflightSchema>;
export type TranslateErrorInput = z.input<typeof translateErrorSchema>;
export type RetryFailedInput = z.input<typeof retryFailedSchema>;

/** Parses input with a schema; failures become one validation_error listing every field issue. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw invalid('Invalid request', {
    issues: result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  });
}
