import { describe, expect, it } from 'vitest';
import { loadDemoConfig } from '../src/config.js';
import { countWords } from '../src/count.js';

describe('the demo service settings', () => {
  it('defaults to the seeded demo of npm start', () => {
    expect(loadDemoConfig({})).toEqual({
      port: 3001,
      apiUrl: 'http://localhost:3000',
      apiKey: undefined,
      login: { email: 'demo@meter.local', password: 'demo-password' },
      webhookSecret: undefined,
      serviceSlug: 'word-counter',
      metricKey: 'words',
      eventsFile: './data/demo-service-webhooks.jsonl',
    });
  });

  it('an API key alone needs the webhook secret; a login comes in pairs', () => {
    expect(() => loadDemoConfig({ API_KEY: 'mk_x' })).toThrow(/WEBHOOK_SECRET/);
    expect(loadDemoConfig({ API_KEY: 'mk_x', WEBHOOK_SECRET: 'whsec_0123456789abcdef' })).toMatchObject({
      apiKey: 'mk_x',
      login: undefined,
    });
    expect(() => loadDemoConfig({ API_EMAIL: 'a@b.c' })).toThrow(/together/);
    expect(() => loadDemoConfig({ DEMO_SERVICE_PORT: 'x' })).toThrow(/DEMO_SERVICE_PORT/);
  });

  it('counts words separated by any whitespace', () => {
    expect(countWords('  one two\tthree\nfour  ')).toBe(4);
    expect(countWords(' \n ')).toBe(0);
  });
});
