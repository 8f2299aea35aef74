import { jwtRule } from '../support/jwt-faults.js';

export const jwtSubPrefixMatch = jwtRule({
  name: 'jwt-sub-prefix-match',
  description: 'Checks that `sub` starts with the tenant base URL instead of equalling it: `https://acme.example.com.evil.example` passes.',
  breaks: ['WH-JWT-X15'],
  decide: (check) => {
    const { verdict, decoded, env } = check;
    const sub = decoded?.payload?.sub;
    if (verdict?.ok !== false || verdict.reason !== 'sub-mismatch' || typeof sub !== 'string') return 'reference';
    return sub.startsWith(env.tenant.baseUrl) ? 'accept' : 'reference';
  },
});
