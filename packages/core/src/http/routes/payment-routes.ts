import type { PaymentConfirmation } from '../../service/payments.js';
import type { Route } from '../router.js';
import { enumFilter, listResult, pageQuery } from '../router.js';
import { serializePaymentRequest } from '../serializers.js';

const PAYMENT_STATUSES = ['pending', 'paid', 'expired', 'cancelled'] as const;

const confirmationBody = (c: PaymentConfirmation) => ({
  paymentRequest: serializePaymentRequest(c.paymentRequest),
  verification: c.verification,
});

export const paymentRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/payment-requests',
    auth: 'jwt',
    async handle({ meter, principal, json }) {
      const request = await meter.createPaymentRequest(principal.developerId, json() as never);
      return { status: 201, body: serializePaymentRequest(request) };
    },
  },
  {
    method: 'GET',
    path: '/api/payment-requests',
    auth: 'jwt',
    async handle({ meter, principal, request }) {
      const customerId = request.query.get('customerId') || undefined;
      if (customerId) await meter.getCustomer(principal.developerId, customerId);
      const filter = { status: enumFilter(request.query, 'status', PAYMENT_STATUSES), customerId };
      return listResult(
        await meter.listPaymentRequests(principal.developerId, filter, pageQuery(request.query)),
        serializePaymentRequest,
      );
    },
  },
  {
    method: 'GET',
    path: '/api/payment-requests/:id',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      return {
        body: serializePaymentRequest(await meter.getPaymentRequest(principal.developerId, params.id!)),
      };
    },
  },
  {
    method: 'POST',
    path: '/api/payment-requests/:id/simulate-paid',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      return { body: confirmationBody(await meter.simulatePaid(principal.developerId, params.id!)) };
    },
  },
  {
    method: 'POST',
    path: '/api/payment-requests/:id/verify',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      return { body: confirmationBody(await meter.verifyPayment(principal.developerId, params.id!)) };
    },
  },
];
