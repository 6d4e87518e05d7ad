import { type ApiKey, type Developer, MeterError, type MeterStore } from '@meter/core';
import { type StoreContext, uniqueOr } from './context.js';
import { type Row, toApiKey, toDeveloper } from './rows.js';

type DeveloperStore = Pick<
  MeterStore,
  | 'createDeveloper'
  | 'getDeveloper'
  | 'findDeveloperForLogin'
  | 'createApiKey'
  | 'listApiKeys'
  | 'findActiveApiKeyByHash'
  | 'revokeApiKey'
>;

/** Developer accounts and their API keys. Emails are stored lowercased, so uniqueness is case-insensitive. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function developerStore({ knex }: StoreContext): DeveloperStore {
  return {
    async createDeveloper(input) {
      const developer: Developer = {
        id: input.id,
        email: input.email.toLowerCase(),
        name: input.name,
        createdAt: input.createdAt,
      };
      await uniqueOr(
        () =>
          knex('developers').insert({
            id: developer.id,
            email: developer.email,
            name: developer.name,
            password_hash: input.passwordHash,
            created_at: developer.createdAt.getTime(),
          }),
        () => new MeterError('conflict', 'A developer with this email already exists'),
      );
      return developer;
    },

    async getDeveloper(id) {
      const row = (await knex('developers').where({ id }).first()) as Row | undefined;
      return row ? toDeveloper(row) : null;
    },

    async findDeveloperForLogin(email) {
      const row = (await knex('developers').where({ email: email.trim().toLowerCase() }).first()) as
        | Row
        | undefined;
      return row ? { ...toDeveloper(row), passwordHash: String(row.password_hash) } : null;
    },

    async createApiKey(input) {
      await knex('api_keys').insert({
        id: input.id,
        developer_id: input.developerId,
        name: input.name,
        key_prefix: input.keyPrefix,
        key_hash: input.keyHash,
        created_at: input.createdAt.getTime(),
      });
      const key: ApiKey = {
        id: input.id,
        developerId: input.developerId,
        name: input.name,
        keyPrefix: input.keyPrefix,
        createdAt: input.createdAt,
        lastUsedAt: null,
        revokedAt: null,
      };
      return key;
    },

    async listApiKeys(developerId) {
      const rows = (await knex('api_keys')
        .where({ developer_id: developerId })
        .orderBy('id', 'desc')) as Row[];
      return rows.map(toApiKey);
    },

    async findActiveApiKeyByHash(keyHash, now) {
      const row = (await knex('api_keys').where({ key_hash: keyHash }).whereNull('revoked_at').first()) as
        | Row
        | undefined;
      if (!row) return null;
      const key = toApiKey(row);
      // Usage ingestion is the hot path: record use at most once a minute per key, not per request.
      if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return key;
      await knex('api_keys').where({ id: row.id }).update({ last_used_at: now.getTime() });
      return { ...key, lastUsedAt: now };
    },

    async revokeApiKey(developerId, id, now) {
      const changed = await knex('api_keys')
        .where({ id, developer_id: developerId })
        .whereNull('revoked_at')
        .update({ revoked_at: now.getTime() });
      return changed > 0;
    },
  };
}
