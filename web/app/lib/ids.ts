const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is an id of the API (a UUID): ids from URLs and bodies are checked before use. */
export const isUuid = (s: unknown): s is string => typeof s === 'string' && UUID.test(s);
