import { NODE_ERROR_TABLE } from './node-error-table.js';

/**
 * Channel-node errors in words an operator can act on. The node's messages vary between
 * versions, so families are matched by substring (reference: the node JSON-RPC's error list).
 * Pure: no node is needed, so this works in every mode.
 */

export interface NodeErrorTranslation {
  /** Stable id of the error family, e.g. `no_route`; `unknown` when nothing matched. */
  family: string;
  title: string;
  explanation: string;
  suggestions: string[];
}

export interface TranslatedNodeError extends NodeErrorTranslation {
  /** The node's text that was translated (cut to 2,000 characters). */
  raw: string;
  /** Whether a known family matched. */
  matched: boolean;
}

const RAW_LIMIT = 2000;

/** The text (and JSON-RPC code) inside a string, an error object or a whole error envelope. */
export function nodeErrorText(input: unknown): { text: string; rpcCode: number | null } {
  if (typeof input === 'string') return { text: input, rpcCode: null };
  if (input instanceof Error) return { text: input.message, rpcCode: null };
  if (typeof input === 'object' && input !== null) {
    const o = input as Record<string, unknown>;
    if (typeof o.error === 'object' && o.error !== null) return nodeErrorText(o.error);
    const parts = [o.message, o.failed_error, o.nodeMessage, o.error].filter((p) => typeof p === 'string');
    if (typeof o.data === 'string') parts.push(o.data);
    const rpcCode = typeof o.code === 'number' ? o.code : null;
    return { text: parts.length ? parts.join(': ') : JSON.stringify(input), rpcCode };
  }
  return { text: String(input), rpcCode: null };
}

/** Maps a node error (string, `{code, message, data}` or a JSON-RPC envelope) to readable text. */
export function translateNodeError(input: unknown): TranslatedNodeError {
  const { text, rpcCode } = nodeErrorText(input);
  const raw = text.length > RAW_LIMIT ? `${text.slice(0, RAW_LIMIT)}…` : text;
  const lower = text.toLowerCase();
  const found =
    NODE_ERROR_TABLE.find((fam) =>
      fam.match.some((m) => (typeof m === 'string' ? lower.includes(m.toLowerCase()) : m.test(text))),
    ) ?? (rpcCode === null ? undefined : NODE_ERROR_TABLE.find((fam) => fam.rpcCodes?.includes(rpcCode)));
  if (found) {
    const { match: _m, rpcCodes: _c, ...translation } = found;
    return { ...translation, suggestions: [...found.suggestions], raw, matched: true };
  }
  return {
    family: 'unknown',
    title: 'Unrecognised node error',
    explanation: `The node answered: "${raw}". This message is not one of the known node errors.`,
    suggestions: [
      'Read the node log around the time of the error.',
      'Check the node version (node_info); messages change between versions.',
      "Search the node project's issues for the exact message.",
    ],
    raw,
    matched: false,
  };
}

/** Every family id, for tests and documentation. */
export const NODE_ERROR_FAMILIES: readonly string[] = NODE_ERROR_TABLE.map((fam) => fam.family);
