/** The demo service's settings, from the environment. */
export interface DemoConfig {
  port: number;
  /** The API's origin, without /api. */
  apiUrl: string;
  /** An API key for usage ingestion; without one, usage is sent with the login's JWT. */
  apiKey: string | undefined;
  /** Logs in to read the service's webhook secret (and to send usage when there is no API key). */
  login: { email: string; password: string } | undefined;
  /** The service's webhook secret; read from the API with the login when not set. */
  webhookSecret: string | undefined;
  serviceSlug: string;
  metricKey: string;
  /** Where accepted webhook events are kept (a JSON-lines file). */
  eventsFile: string;
}

export class DemoConfigError extends Error {
  override name = 'DemoConfigError';
}

const DEMO_LOGIN = { email: 'demo@meter.local', password: 'demo-password' };

export function loadDemoConfig(env: NodeJS.ProcessEnv): DemoConfig {
  const value = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const port = Number(value('DEMO_SERVICE_PORT') ?? 3001);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new DemoConfigError(`DEMO_SERVICE_PORT must be a port number; got ${env.DEMO_SERVICE_PORT}`);
  }
  const apiKey = value('API_KEY');
  const email = value('API_EMAIL');
  const password = value('API_PASSWORD');
  if ((email === undefined) !== (password === undefined)) {
    throw new DemoConfigError('Set API_EMAIL and API_PASSWORD together');
  }
  // Without any credentials, the seeded demo developer of `npm start` is used.
  const login = email && password ? { email, password } : apiKey ? undefined : DEMO_LOGIN;
  const webhookSecret = value('WEBHOOK_SECRET');
  if (!login && !webhookSecret) {
    throw new DemoConfigError(
      'With API_KEY alone the webhook secret cannot be read from the API: set WEBHOOK_SECRET, ' +
        'or API_EMAIL and API_PASSWORD',
    );
  }
  return {
    port,
    apiUrl: value('API_URL') ?? 'http://localhost:3000',
    apiKey,
    login,
    webhookSecret,
    serviceSlug: value('SERVICE_SLUG') ?? 'word-counter',
    metricKey: value('METRIC_KEY') ?? 'words',
    eventsFile: `${value('DEMO_DATA_DIR') ?? './data'}/demo-service-webhooks.jsonl`,
  };
}
