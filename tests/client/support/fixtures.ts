/**
 * Small fixture servers on 127.0.0.1:0 and a profile that points at them, for the client tests.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { generateClientSecret, generateHmacSecret, generateSigningKey, privateJwkValues } from '../../../src/crypto/index.js';
import type { ResolvedProfile, SigningJwk } from '../../../src/profile/types.js';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void | Promise<void>;

export interface Fixture {
  url: string;
  port: number;
  received: Received[];
  server: Server;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 with a free port; every request and its body is kept in `received`. */
export async function startFixture(handler: Handler): Promise<Fixture> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      Promise.resolve(handler(req, res, body)).catch(() => res.destroy());
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export interface TestSecrets {
  clientSecret: string;
  hmacSecret: string;
  hooksToken: string;
  jwtKeys: SigningJwk[];
}

let cachedKeys: SigningJwk[] | undefined;

/** Fresh credentials (signing keys are generated once per file: RSA generation is slow on 2 cores). */
export async function makeSecrets(): Promise<TestSecrets> {
  cachedKeys ??= [await generateSigningKey('EdDSA', 'ed-1'), await generateSigningKey('ES256', 'es-1'), await generateSigningKey('RS256', 'rs-1')];
  const { secret } = await generateClientSecret('svc.test');
  return { clientSecret: secret, hmacSecret: generateHmacSecret(), hooksToken: `hooks-${generateHmacSecret()}`, jwtKeys: cachedKeys };
}

/** A resolved profile for a fixture at `baseUrl` (what src/profile would produce). */
export function makeProfile(baseUrl: string, secrets: TestSecrets, extra: Partial<ResolvedProfile> = {}): ResolvedProfile {
  return {
    version: 1,
    name: 'fixture',
    baseUrl,
    tenantDomain: 'tenant.test',
    webhookBaseUrl: baseUrl,
    tls: { insecureSkipVerify: false },
    credentials: { primary: { clientId: 'brave-otter-1@tenant.test/conformance', clientSecret: secrets.clientSecret } },
    apps: { entitlements: {} },
    webhooks: {
      hmac: { listenerId: 'wh_hmac', secret: secrets.hmacSecret },
      jwt: { listenerId: 'wh_jwt', signingKeys: secrets.jwtKeys },
    },
    hooks: { baseUrl: `${baseUrl}/__hooks/v1`, token: secrets.hooksToken },
    limits: { webhookBodyBytes: 65_536 },
    secrets: [
      secrets.clientSecret,
      secrets.hmacSecret,
      secrets.hooksToken,
      ...secrets.jwtKeys.flatMap((key) => privateJwkValues(key)),
    ],
    ...extra,
  };
}
