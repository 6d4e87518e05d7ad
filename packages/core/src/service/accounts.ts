import { MeterError, notFound } from '../domain/errors.js';
import type { ApiKey, Developer } from '../domain/types.js';
import type { ServiceContext } from './context.js';
import { generateApiKey, hashApiKey, hashPassword, timingDummyHash, verifyPassword } from './credentials.js';
import {
  type CreateApiKeyInput,
  createApiKeySchema,
  type LoginInput,
  loginSchema,
  parseInput,
  type RegisterInput,
  registerSchema,
} from './schemas.js';

export function accountOperations({ store, clock, ids }: ServiceContext) {
  return {
    /** Creates a developer account. Email is unique, case-insensitively. */
    async registerDeveloper(input: RegisterInput): Promise<Developer> {
      const data = parseInput(registerSchema, input);
      return store.createDeveloper({
        id: ids.newId('dev'),
        email: data.email.toLowerCase(),
        name: data.name,
        passwordHash: await hashPassword(data.password),
        createdAt: clock.now(),
      });
    },

    /** Checks an email and password; throws invalid_credentials for either being wrong. */
    async authenticate(input: LoginInput): Promise<Developer> {
      const data = parseInput(loginSchema, input);
      const found = await store.findDeveloperForLogin(data.email.trim().toLowerCase());
      const ok = await verifyPassword(data.password, found?.passwordHash ?? (await timingDummyHash()));
      if (!found || !ok) throw new MeterError('invalid_credentials', 'Email or password is wrong');
      const { passwordHash: _, ...developer } = found;
      return developer;
    },

    getDeveloper(id: string): Promise<Developer | null> {
      return store.getDeveloper(id);
    },

    /** Creates an API key. The key is in the result once; only its hash is kept. */
    async createApiKey(
      developerId: string,
      input: CreateApiKeyInput,
    ): Promise<{ apiKey: ApiKey; key: string }> {
      const data = parseInput(createApiKeySchema, input);
      const { key, keyPrefix, keyHash } = generateApiKey();
      const apiKey = await store.createApiKey({
        id: ids.newId('key'),
        developerId,
        name: data.name,
        keyPrefix,
        keyHash,
        createdAt: clock.now(),
      });
      return { apiKey, key };
    },

    listApiKeys(developerId: string): Promise<ApiKey[]> {
      return store.listApiKeys(developerId);
    },

    async revokeApiKey(developerId: string, id: string): Promise<void> {
      if (!(await store.revokeApiKey(developerId, id, clock.now()))) throw notFound('API key');
    },

    /** The active key matching a presented secret, or null. */
    authenticateApiKey(key: string): Promise<ApiKey | null> {
      return store.findActiveApiKeyByHash(hashApiKey(key), clock.now());
    },
  };
}
