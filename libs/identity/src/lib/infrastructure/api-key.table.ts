import { fieldTable } from '@almanac/shared';
import { API_KEY_FIELDS, NEW_API_KEY_FIELDS } from '../domain/api-key';

/** `api_keys` as read: every column but the hash. */
export const API_KEY_TABLE = fieldTable('api_keys', API_KEY_FIELDS);

/** `api_keys` as a new key is written: with the hash. */
export const NEW_API_KEY_TABLE = fieldTable('api_keys', NEW_API_KEY_FIELDS);
