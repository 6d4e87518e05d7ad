import { verifyWebhook } from '@meter/client';

/** A route handler for fetch runtimes (Next.js, Hono, Bun, Deno): verifyWebhook on its own. */
export async function POST(request: Request): Promise<Response> {
  const result = verifyWebhook({
    rawBody: await request.arrayBuffer(), // the bytes, not request.json()
    headers: request.headers,
    secret: process.env.METER_WEBHOOK_SECRET!,
  });
  if (!result.ok) {
    const status = result.reason === 'invalid_body' || result.reason === 'missing_delivery_id' ? 400 : 401;
    return Response.json({ error: result.reason, message: result.message }, { status });
  }
  // Store result.event under a unique key on result.deliveryId (a repeat is a duplicate), then:
  return Response.json({ received: true });
}
