import type { Logger } from '../ports/runtime.js';

/** A framework-neutral request: what every adapter converts its framework's request into. */
export interface MeterRequest {
  method: string;
  /** Path without the query string, e.g. `/api/customers/cus_1`. */
  path: string;
  query: URLSearchParams;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** The exact request bytes, or null when there was no body. */
  body: Uint8Array | null;
  /** The peer address of the connection, when the runtime knows it (used to brake login guessing). */
  remoteAddress?: string | undefined;
}

export interface MeterResponse {
  status: number;
  headers: Record<string, string>;
  /** Serialised JSON, or undefined for an empty body (204). */
  body: string | undefined;
}

export type MeterHandler = (request: MeterRequest) => Promise<MeterResponse>;

/**
 * What `createMeterHandler` returns and what every adapter mounts: the handler plus what an
 * adapter needs to feed it (the body limit to enforce while reading, and where to log).
 */
export type MeterHttpHandler = MeterHandler & {
  readonly bodyLimit: number;
  readonly logger?: Logger | undefined;
};
