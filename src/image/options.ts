/**
 * The reference image's reading of the image contract: environment → sandbox settings. Pure, so that it
 * can be tested without a container. Problems are returned as messages (the entrypoint exits 2 with them).
 */
import { isAbsolute } from 'node:path';
import {
  ENV_BASE_URL,
  ENV_FAULT,
  ENV_HARNESS_HOST,
  ENV_HOOKS,
  ENV_HOST,
  ENV_PORT,
  ENV_PROFILE_OUT,
  ENV_SEED,
} from './contract.js';

export const DEFAULT_IMAGE_PORT = 8080;

export interface ImageSettings {
  /** Public base URL, no trailing slash. */
  publicBaseUrl: string;
  /** Absolute path of the profile to write. */
  profileOut: string;
  hooks: boolean;
  host: string;
  port: number;
  /** Host name the JWKS URL must name so the container reaches the harness. */
  jwksHost: string;
  fault?: string;
  seed?: string;
}

export type SettingsResult = { ok: true; settings: ImageSettings } | { ok: false; problems: string[] };

export function readImageSettings(env: NodeJS.ProcessEnv): SettingsResult {
  const problems: string[] = [];
  const baseUrl = (env[ENV_BASE_URL] ?? '').trim();
  let publicBaseUrl = '';
  if (baseUrl === '') problems.push(`${ENV_BASE_URL} is not set: the harness passes the URL it will call`);
  else {
    try {
      const url = new URL(baseUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(`${ENV_BASE_URL} must be an http(s) URL, got ${baseUrl}`);
      publicBaseUrl = baseUrl.replace(/\/+$/, '');
    } catch {
      problems.push(`${ENV_BASE_URL} is not a URL: ${baseUrl}`);
    }
  }

  const profileOut = (env[ENV_PROFILE_OUT] ?? '').trim();
  if (profileOut === '') problems.push(`${ENV_PROFILE_OUT} is not set: the harness passes where to write the target profile`);
  else if (!isAbsolute(profileOut)) problems.push(`${ENV_PROFILE_OUT} must be an absolute path, got ${profileOut}`);

  const hooksValue = (env[ENV_HOOKS] ?? '0').trim();
  if (hooksValue !== '0' && hooksValue !== '1' && hooksValue !== '') problems.push(`${ENV_HOOKS} must be 1 or 0, got ${hooksValue}`);

  const portValue = (env[ENV_PORT] ?? '').trim();
  const port = portValue === '' ? DEFAULT_IMAGE_PORT : Number(portValue);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) problems.push(`${ENV_PORT} must be a TCP port (1-65535), got ${portValue}`);

  const fault = env[ENV_FAULT]?.trim() || undefined;
  const seed = env[ENV_SEED]?.trim() || undefined;
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    settings: {
      publicBaseUrl,
      profileOut,
      hooks: hooksValue === '1',
      host: env[ENV_HOST]?.trim() || '0.0.0.0',
      port,
      jwksHost: env[ENV_HARNESS_HOST]?.trim() || '127.0.0.1',
      fault,
      seed,
    },
  };
}
