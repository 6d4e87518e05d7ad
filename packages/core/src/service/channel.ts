import { MeterError } from '../domain/errors.js';
import { type TranslatedNodeError, translateNodeError } from '../domain/node-errors.js';
import type {
  ChannelDiagnostics,
  ChannelHealth,
  LiveProof,
  PreflightReport,
} from '../ports/channel-provider.js';
import type { ServiceContext } from './context.js';
import {
  type PreflightInput,
  parseInput,
  preflightSchema,
  type TranslateErrorInput,
  translateErrorSchema,
} from './schemas.js';

/** What health answers in simulated mode: there is no node to ask. */
export interface SimulatedChannelHealth {
  mode: 'simulated';
  ok: true;
  currency: string;
  payee: null;
  payer: null;
  warnings: string[];
  message: string;
}

/**
 * Operator diagnostics of the channel nodes (`/api/channel/*`). Health answers in every mode;
 * preflight and live-proof need a provider with diagnostics (live mode) and are `forbidden`
 * otherwise; translate-error needs no node at all.
 */
export function channelOperations(ctx: ServiceContext) {
  const { provider } = ctx;

  function diagnostics(what: string): ChannelDiagnostics {
    if (provider.mode === 'simulated') {
      throw new MeterError('forbidden', `${what} is only available in live mode (CHANNEL_PROVIDER=live)`);
    }
    if (!provider.diagnostics) {
      throw new MeterError('forbidden', `${what} is not supported by this channel provider`);
    }
    return provider.diagnostics;
  }

  return {
    /** Payee and payer reachability, node info, channel counts, ready channels and the mode. */
    async channelHealth(): Promise<ChannelHealth | SimulatedChannelHealth> {
      if (provider.mode !== 'simulated') return diagnostics('Channel health').health();
      return {
        mode: 'simulated',
        ok: true,
        currency: provider.currency,
        payee: null,
        payer: null,
        warnings: [],
        message: 'Simulated mode: payments are confirmed with simulate-paid and no channel node is used.',
      };
    },

    /** Decodes an invoice, checks its network and dry-runs the payment on the payer node. */
    async preflightInvoice(input: PreflightInput): Promise<PreflightReport> {
      const { invoice } = parseInput(preflightSchema, input);
      return diagnostics('Preflight').preflight(invoice);
    },

    /** Each open channel's on-chain funding transaction with its explorer link. */
    async liveProof(): Promise<LiveProof> {
      return diagnostics('The live proof').liveProof();
    },

    /** A node error in words: title, explanation and suggestions. Works in every mode. */
    translateNodeError(input: TranslateErrorInput): TranslatedNodeError {
      return translateNodeError(parseInput(translateErrorSchema, input).error);
    },
  };
}
