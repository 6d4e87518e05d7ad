import type { PreflightInput, TranslateErrorInput } from '@meter/core';
import type { Http } from './http.js';
import type {
  ChannelConfig,
  ChannelHealth,
  DashboardSummary,
  LiveProof,
  PreflightReport,
  TranslatedNodeError,
} from './types.js';

/** Operator diagnostics; none of them is a step of the payment flow. */
export function channelResource(http: Http) {
  return {
    /** GET /api/channel/config (public): the provider mode, currency and invoice lifetime. */
    config() {
      return http.send<ChannelConfig>({ method: 'GET', path: '/api/channel/config', auth: 'none' });
    },
    /** GET /api/channel/health: the nodes and their channels. */
    health() {
      return http.send<ChannelHealth>({ method: 'GET', path: '/api/channel/health' });
    },
    /** POST /api/channel/preflight: checks an invoice before anyone pays it (live mode). */
    preflight(input: PreflightInput) {
      return http.send<PreflightReport>({ method: 'POST', path: '/api/channel/preflight', body: input });
    },
    /** POST /api/channel/translate-error: a node error in words an operator can act on. */
    translateError(input: TranslateErrorInput) {
      return http.send<TranslatedNodeError>({
        method: 'POST',
        path: '/api/channel/translate-error',
        body: input,
      });
    },
    /** GET /api/channel/live-proof: each open channel's on-chain funding transaction (live mode). */
    liveProof() {
      return http.send<LiveProof>({ method: 'GET', path: '/api/channel/live-proof' });
    },
  };
}

export function dashboardResource(http: Http) {
  return {
    /** GET /api/dashboard/summary: totals and recent activity. */
    summary() {
      return http.send<DashboardSummary>({ method: 'GET', path: '/api/dashboard/summary' });
    },
  };
}
