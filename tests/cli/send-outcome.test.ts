/** The answer `send --strict` holds a target to (service.md §7, rulings 14-22), and its exit codes. */
import { describe, expect, it } from 'vitest';
import { BREAKS, type BreakName } from '../../src/cli/commands/send-options.js';
import { BREAK_STATUS, expectedAnswer, isJson, sendExitCode, type SentRequest } from '../../src/cli/commands/send-outcome.js';

const NOW = 1_767_225_600;
const sent = (over: Partial<SentRequest> = {}): SentRequest => ({ listener: 'hmac', breaks: [], bodyIsJson: true, eventIdGiven: false, now: NOW, ...over });
const allowed = (over: Partial<SentRequest>): number[] => [200, 400, 401, 403, 404, 409, 413, 422, 500].filter((status) => expectedAnswer(sent(over)).accepts(status));

describe('expectedAnswer', () => {
  it('each --break earns the status BREAKS states in words', () => {
    for (const [name, text] of Object.entries(BREAKS)) {
      expect(text.endsWith(`: ${BREAK_STATUS[name as BreakName]}`), name).toBe(true);
      expect(allowed({ breaks: [name as BreakName] }), name).toEqual([BREAK_STATUS[name as BreakName]]);
    }
  });

  it('a clean request: 200 only; text says why', () => {
    expect(allowed({})).toEqual([200]);
    expect(expectedAnswer(sent()).text).toBe('200 (accepted)');
  });

  it('several broken rules: any of their statuses (ruling 17 leaves the order of 400 against 401 open)', () => {
    expect(allowed({ breaks: ['timestamp', 'signature'] })).toEqual([400, 401]);
    expect(expectedAnswer(sent({ breaks: ['timestamp', 'signature'] })).text).toBe('400 (--break timestamp) or 401 (--break signature)');
  });

  it('a given event ID may repeat: 200 or 409, but no 409 after an authentication failure (authentication first)', () => {
    expect(allowed({ eventIdGiven: true })).toEqual([200, 409]);
    expect(allowed({ eventIdGiven: true, breaks: ['auth'] })).toEqual([401]);
    expect(allowed({ eventIdGiven: true, breaks: ['content-type'] })).toEqual([400, 409]);
  });

  it('--raw non-JSON: 400; a timestamp outside ±300 s or not decimal seconds: 400; inside: accepted', () => {
    expect(allowed({ bodyIsJson: false })).toEqual([400]);
    expect(allowed({ timestamp: String(NOW - 301) })).toEqual([400]);
    expect(allowed({ timestamp: String(NOW * 1000) })).toEqual([400]);
    expect(allowed({ timestamp: '2026-01-01T00:00:00Z' })).toEqual([400]);
    expect(allowed({ timestamp: String(NOW + 300) })).toEqual([200]);
  });

  it('the listeners that refuse by design: ipRestricted 403, jwtUnreachableJwks 401, inactive anything but 200', () => {
    expect(allowed({ listener: 'ipRestricted' })).toEqual([403]);
    expect(allowed({ listener: 'jwtUnreachableJwks' })).toEqual([401]);
    expect(allowed({ listener: 'inactive' })).toEqual([400, 401, 403, 404, 409, 413, 422, 500]);
    expect(allowed({ listener: 'inactive', breaks: ['signature'] })).toEqual([401]);
  });
});

describe('sendExitCode', () => {
  it('--strict: 0 exactly on an expected answer; without: 0 on 2xx', () => {
    const forged = expectedAnswer(sent({ breaks: ['signature'] }));
    expect([sendExitCode(true, forged, 401), sendExitCode(true, forged, 200), sendExitCode(false, forged, 401), sendExitCode(false, forged, 200)]).toEqual([0, 1, 1, 0]);
  });
});

describe('isJson', () => {
  it('isJson: JSON text only, UTF-8 only', () => {
    expect([isJson(Buffer.from('{"a":1}')), isJson(Buffer.from('{not')), isJson(Buffer.from([0x22, 0xff, 0x22]))]).toEqual([true, false, false]);
  });
});
