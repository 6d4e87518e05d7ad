/**
 * A fetch `Headers` (or anything with `get`), or a plain object as Node, Express, Koa and Hapi
 * give (values are strings, or arrays of strings for repeated headers; others are ignored).
 */
export type WebhookHeaders =
  | { get(name: string): string | null | undefined }
  | Readonly<Record<string, unknown>>;

/**
 * One header's value, whatever the case of its name. A header sent twice (an array, or two
 * spellings in a plain object) comes back joined with ", " as Node joins them, which no
 * Meter header value can match, so a doubled header fails its check instead of one copy winning.
 */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') {
    return (headers.get as (name: string) => string | null | undefined)(name) ?? undefined;
  }
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    if (typeof value === 'string') values.push(value);
    else if (Array.isArray(value)) values.push(...value.filter((v): v is string => typeof v === 'string'));
  }
  return values.length === 0 ? undefined : values.join(', ');
}
