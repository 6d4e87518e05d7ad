/**
 * The metering API as the auto-payer uses it: log in, list pending payment requests, verify.
 * A 401 on any call (the JWT expired) logs in again and retries the call once.
 */

export interface PaymentRequestView {
  id: string;
  customerId: string;
  amount: string;
  asset: string;
  status: string;
  provider: string;
  paymentUri: string;
  paymentHash: string | null;
  expiresAt: string;
}

export interface VerifyAnswer {
  status: number;
  paid: boolean;
  invoiceStatus: string | null;
  /** The API's error code for a non-2xx answer (e.g. `expired`). */
  errorCode: string | null;
  message: string | null;
}

export interface ApiClient {
  /** Live requests that are pending, oldest first. */
  listLivePending(): Promise<PaymentRequestView[]>;
  verify(id: string): Promise<VerifyAnswer>;
}

/** The API answered with an error status. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ApiClientOptions {
  baseUrl: string;
  email: string;
  password: string;
  timeoutMs?: number;
  log(message: string): void;
}

/** The fields the auto-payer reads from API answers. */
interface ApiBody {
  token?: string;
  expiresAt?: string;
  error?: { code?: string; message?: string };
  verification?: { paid?: boolean; invoiceStatus?: string };
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const { baseUrl, email, password, log } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let token: string | null = null;

  async function send(method: string, path: string, payload?: unknown, auth = true) {
    let res: Response;
    try {
      res = await fetch(baseUrl + path, {
        method,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...(auth && token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new Error(`the API at ${baseUrl} is not reachable (${cause})`);
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: kept as text below
    }
    const body = (json && typeof json === 'object' ? json : {}) as ApiBody;
    return { status: res.status, json, body, headers: res.headers, text };
  }

  async function login(): Promise<void> {
    const res = await send('POST', '/api/auth/login', { email, password }, false);
    if (res.status !== 200 || typeof res.body.token !== 'string') {
      throw new ApiError(
        res.status,
        `login as ${email} failed: ${res.body.error?.message ?? `HTTP ${res.status}`}`,
      );
    }
    token = res.body.token;
    log(`logged in as ${email}${res.body.expiresAt ? ` (token valid until ${res.body.expiresAt})` : ''}`);
  }

  /** A call with the JWT; logs in first, and again once when the token is refused. */
  async function authed(method: string, path: string, body?: unknown) {
    if (!token) await login();
    let res = await send(method, path, body);
    if (res.status === 401) {
      log(`the API refused the token (${res.body.error?.message ?? 'HTTP 401'}); logging in again`);
      await login();
      res = await send(method, path, body);
    }
    return res;
  }

  return {
    async listLivePending() {
      const found: PaymentRequestView[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 20; page++) {
        const query = `?status=pending&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await authed('GET', `/api/payment-requests${query}`);
        if (res.status !== 200 || !Array.isArray(res.json)) {
          throw new ApiError(
            res.status,
            `listing payment requests failed: ${res.body.error?.message ?? `HTTP ${res.status}`}`,
          );
        }
        found.push(...(res.json as PaymentRequestView[]));
        cursor = res.headers.get('x-next-cursor');
        if (!cursor) break;
      }
      return found.filter((r) => r.provider === 'live' && r.status === 'pending').reverse();
    },

    async verify(id) {
      const res = await authed('POST', `/api/payment-requests/${encodeURIComponent(id)}/verify`, {});
      if (res.status === 200) {
        return {
          status: 200,
          paid: res.body.verification?.paid === true,
          invoiceStatus: res.body.verification?.invoiceStatus ?? null,
          errorCode: null,
          message: null,
        };
      }
      return {
        status: res.status,
        paid: false,
        invoiceStatus: null,
        errorCode: res.body.error?.code ?? null,
        message: res.body.error?.message ?? (res.text.slice(0, 200) || `HTTP ${res.status}`),
      };
    },
  };
}
