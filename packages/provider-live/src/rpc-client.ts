import { type ErrorCode, MeterError, type TranslatedNodeError, translateNodeError } from '@meter/core';
import type { z } from 'zod';

/**
 * A small JSON-RPC 2.0 client for a channel node: HTTP POST to the node URL, params as an
 * array holding one object, a timeout per call. Every failure is a NodeRpcError, a MeterError
 * whose code says what went wrong (unreachable 503, timeout 504, node error or unreadable
 * answer 502) and whose details keep the node's own message.
 */

export interface RpcClientOptions {
  url: string;
  /** Per-call timeout in milliseconds; default 10,000. */
  timeoutMs?: number;
  /** How messages name this node, e.g. "payee node". */
  role?: string;
}

export interface RpcClient {
  readonly url: string;
  readonly role: string;
  /** Calls `method` with `params` (an object, or `[]` for methods without params) and validates the result. */
  call<S extends z.ZodType>(
    method: string,
    params: Record<string, unknown> | [],
    schema: S,
  ): Promise<z.output<S>>;
}

export type NodeFailure = 'unreachable' | 'timeout' | 'node_error' | 'bad_response';

const CODE_OF: Record<NodeFailure, ErrorCode> = {
  unreachable: 'provider_unavailable',
  timeout: 'provider_timeout',
  node_error: 'provider_error',
  bad_response: 'provider_error',
};

/** A failed node call. `nodeMessage` is the node's own text (or the transport error's). */
export class NodeRpcError extends MeterError {
  override name = 'NodeRpcError';
  readonly failure: NodeFailure;
  readonly method: string;
  readonly rpcCode: number | null;
  readonly nodeMessage: string;

  constructor(
    failure: NodeFailure,
    message: string,
    info: { method: string; role: string; rpcCode?: number | null; nodeMessage: string },
    cause?: unknown,
  ) {
    const translation = translateFailure(failure, info.nodeMessage, info.rpcCode ?? null);
    super(
      CODE_OF[failure],
      message,
      {
        node: info.role,
        method: info.method,
        rpcCode: info.rpcCode ?? null,
        nodeMessage: info.nodeMessage,
        hint: { family: translation.family, title: translation.title, suggestions: translation.suggestions },
      },
      { cause },
    );
    this.failure = failure;
    this.method = info.method;
    this.rpcCode = info.rpcCode ?? null;
    this.nodeMessage = info.nodeMessage;
  }
}

/**
 * The translation of a failed call: transport failures by their kind (their texts vary by
 * platform), node errors by the node's message. `raw` keeps the original text.
 */
export function translateFailure(
  failure: NodeFailure,
  nodeMessage: string,
  rpcCode: number | null = null,
): TranslatedNodeError {
  const input =
    failure === 'unreachable'
      ? 'not reachable'
      : failure === 'timeout'
        ? 'timed out'
        : { code: rpcCode ?? undefined, message: nodeMessage };
  return { ...translateNodeError(input), raw: nodeMessage };
}

/** Translates anything a provider call threw (a NodeRpcError or another MeterError). */
export function translateThrown(err: unknown): TranslatedNodeError {
  if (err instanceof NodeRpcError) return translateFailure(err.failure, err.nodeMessage, err.rpcCode);
  return translateNodeError(err instanceof Error ? err.message : String(err));
}

function transportMessage(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.message) return cause.message;
  if (cause?.code) return cause.code;
  return err instanceof Error ? err.message : String(err);
}

export function createRpcClient(options: RpcClientOptions): RpcClient {
  const { url } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const role = options.role ?? 'channel node';
  let nextId = 1;

  async function call<S extends z.ZodType>(
    method: string,
    params: Record<string, unknown> | [],
    schema: S,
  ): Promise<z.output<S>> {
    const id = nextId++;
    const fail = (
      failure: NodeFailure,
      message: string,
      nodeMessage: string,
      rpcCode?: number,
      cause?: unknown,
    ) => new NodeRpcError(failure, message, { method, role, rpcCode: rpcCode ?? null, nodeMessage }, cause);
    const signal = AbortSignal.timeout(timeoutMs);
    let status: number;
    let text: string;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method,
          params: Array.isArray(params) ? params : [params],
        }),
        signal,
      });
      status = res.status;
      text = await res.text();
    } catch (err) {
      if (signal.aborted) {
        throw fail(
          'timeout',
          `The ${role} did not answer ${method} within ${timeoutMs} ms`,
          `timed out after ${timeoutMs} ms`,
          undefined,
          err,
        );
      }
      const detail = transportMessage(err);
      throw fail(
        'unreachable',
        `The ${role} is not reachable (${detail}); check that it runs and that its RPC URL is right`,
        detail,
        undefined,
        err,
      );
    }

    let body: { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
    try {
      body = JSON.parse(text);
    } catch {
      if (status >= 502 && status <= 504) {
        throw fail(
          'unreachable',
          `The ${role} is not reachable (HTTP ${status} in front of it)`,
          `HTTP ${status}`,
        );
      }
      throw fail(
        'bad_response',
        `The ${role} answered ${method} with something that is not JSON-RPC (HTTP ${status})`,
        text.slice(0, 200),
      );
    }
    if (body && typeof body === 'object' && body.error && typeof body.error === 'object') {
      const nodeMessage =
        typeof body.error.message === 'string' ? body.error.message : JSON.stringify(body.error);
      const detail = typeof body.error.data === 'string' ? `${nodeMessage}: ${body.error.data}` : nodeMessage;
      const rpcCode = typeof body.error.code === 'number' ? body.error.code : undefined;
      throw fail('node_error', `The ${role} refused ${method}: ${detail}`, detail, rpcCode);
    }
    if (!body || typeof body !== 'object' || !('result' in body)) {
      throw fail(
        'bad_response',
        `The ${role} answered ${method} without a result (HTTP ${status})`,
        text.slice(0, 200),
      );
    }
    const parsed = schema.safeParse(body.result);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.') || 'result'}: ${issue.message}` : 'unexpected shape';
      throw fail(
        'bad_response',
        `The ${role} answered ${method} with an unexpected result (${where})`,
        JSON.stringify(body.result).slice(0, 500),
      );
    }
    return parsed.data;
  }

  return { url, role, call };
}
