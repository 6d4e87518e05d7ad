import type { CreatePaymentRequestInput, PaymentStatus } from '@meter/core';
import type { Http } from './http.js';
import type { PageParams, PaymentConfirmation, PaymentRequest } from './types.js';

const id = encodeURIComponent;

export interface PaymentRequestListParams extends PageParams {
  status?: PaymentStatus;
  /** A customer's database id. */
  customerId?: string;
}

export function paymentRequestsResource(http: Http) {
  return {
    /** POST /api/payment-requests: `customerId` is the database id, `amount` a decimal string. */
    create(input: CreatePaymentRequestInput) {
      return http.send<PaymentRequest>({ method: 'POST', path: '/api/payment-requests', body: input });
    },
    /** GET /api/payment-requests. */
    list(params: PaymentRequestListParams = {}) {
      return http.list<PaymentRequest>('/api/payment-requests', { ...params });
    },
    /** GET /api/payment-requests/:id. */
    get(requestId: string) {
      return http.send<PaymentRequest>({ method: 'GET', path: `/api/payment-requests/${id(requestId)}` });
    },
    /** POST /api/payment-requests/:id/simulate-paid (simulated mode): credits the balance once. */
    simulatePaid(requestId: string) {
      return http.send<PaymentConfirmation>({
        method: 'POST',
        path: `/api/payment-requests/${id(requestId)}/simulate-paid`,
      });
    },
    /** POST /api/payment-requests/:id/verify: asks the provider; credits the balance once when paid. */
    verify(requestId: string) {
      return http.send<PaymentConfirmation>({
        method: 'POST',
        path: `/api/payment-requests/${id(requestId)}/verify`,
      });
    },
  };
}
