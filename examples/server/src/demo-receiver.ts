import { verifyWebhookSignature, WEBHOOK_HEADERS } from '@meter/core';
import express, { type Router } from 'express';

/**
 * A reference webhook receiver mounted in the host app: it verifies the signature over the
 * raw body (401 when it fails), then accepts the event. The demo keeps events in memory and
 * shows them at GET /demo/webhooks.
 */
export function demoReceiver(secret: () => string | undefined): Router {
  const received: { deliveryId: string | undefined; receivedAt: string; event: unknown }[] = [];
  const router = express.Router();
  router.post('/demo/webhooks', express.raw({ type: '*/*', limit: '1mb' }), (req, res) => {
    const rawBody: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const check = verifyWebhookSignature({
      rawBody,
      timestamp: req.get(WEBHOOK_HEADERS.timestamp),
      signature: req.get(WEBHOOK_HEADERS.signature),
      secret: secret() ?? '',
    });
    if (!check.ok) {
      res.status(401).json({ error: check.reason });
      return;
    }
    const deliveryId = req.get(WEBHOOK_HEADERS.delivery);
    if (!received.some((r) => r.deliveryId === deliveryId)) {
      received.unshift({
        deliveryId,
        receivedAt: new Date().toISOString(),
        event: JSON.parse(rawBody.toString('utf8')),
      });
      received.length = Math.min(received.length, 100);
    }
    res.status(200).json({ received: true });
  });
  router.get('/demo/webhooks', (_req, res) => {
    res.json(received);
  });
  return router;
}
