/**
 * The one escape module: each medium's function on the payloads a hostile target sends (terminal
 * controls, bidi overrides, backtick runs, HTML, workflow-command separators) and the per-exchange cap.
 */
import { describe, expect, it } from 'vitest';
import { capText, escapeMarkup, ghData, ghProperty, hasUnsafeControls, mdCode, mdFence, mdText, oneLine, shortText, visibleControls } from '../../src/escape.js';

const CONTROLS = '\u001b[2J\u001b[H\u0007\r\u0000\u009b31m\u202e\u2066\u007f\u000b\u000c';

describe('visibleControls', () => {
  it('shows every control, bidi and C1 character as an escape and keeps line feeds and tabs', () => {
    const out = visibleControls(`a${CONTROLS}b\n\tc`);
    expect(out).toBe('a\\x1b[2J\\x1b[H\\x07\\x0d\\x00\\x9b31m\\u202e\\u2066\\x7f\\x0b\\x0cb\n\tc');
    expect(hasUnsafeControls(out)).toBe(false);
    expect(hasUnsafeControls(CONTROLS)).toBe(true);
  });

  it('leaves ordinary text, emoji and non-Latin scripts alone; shows lone surrogates', () => {
    expect(visibleControls('Grüße 👋 привет ✓')).toBe('Grüße 👋 привет ✓');
    expect(visibleControls('x\uD800y')).toBe('x\\ud800y');
  });

  it('oneLine shows line breaks as \\n too', () => {
    expect(oneLine('198 passed, 0 failed, 0 skipped\r\nverdict: conformant')).toBe('198 passed, 0 failed, 0 skipped\\x0d\\nverdict: conformant');
  });
});

describe('capText and shortText', () => {
  it('cuts at the byte bound without splitting a character and counts what was left out', () => {
    const cut = capText('é'.repeat(10), 5);
    expect(cut.text).toBe('éé');
    expect(cut.moreBytes).toBe(16);
    expect(capText('short', 2048)).toEqual({ text: 'short', moreBytes: 0 });
  });

  it('counts bytes a recorder cut earlier, and not bytes redaction removed', () => {
    expect(capText('abc', 2048, { totalBytes: 5000, truncated: true }).moreBytes).toBe(4997);
    expect(capText('x=[REDACTED]', 2048, { totalBytes: 300, truncated: false }).moreBytes).toBe(0);
  });

  it('a 200 KB control-byte body becomes at most a few KB of visible text', () => {
    const bomb = '\u001b[5m\u0007'.repeat(40_000);
    const out = shortText(bomb, 1024);
    expect(out.length).toBeLessThan(4 * 1024 + 64);
    expect(out).toMatch(/… \d+ more bytes$/);
    expect(hasUnsafeControls(out)).toBe(false);
  });
});

describe('Markdown', () => {
  it('mdCode fences with more backticks than any run inside, pads edge backticks, escapes pipes and line breaks', () => {
    expect(mdCode('plain')).toBe('`plain`');
    expect(mdCode('a ` b')).toBe('``a ` b``');
    expect(mdCode('``` x ``')).toBe('```` ``` x `` ````');
    expect(mdCode('`edge`')).toBe('`` `edge` ``');
    expect(mdCode('a|b\nc')).toBe('`a\\|b\\nc`');
  });

  it('mdFence opens and closes with a fence longer than any backtick run of the text', () => {
    const lines = mdFence('before\n```\n</details><img src=x>\n`````\nafter', 'http');
    expect(lines[0]).toBe('``````http');
    expect(lines.at(-1)).toBe('``````');
    expect(lines.slice(1, -1)).toEqual(['before', '```', '</details><img src=x>', '`````', 'after']);
    expect(mdFence('x')[0]).toBe('```');
  });

  it('mdText leaves no link, image, emphasis, HTML or autolink syntax', () => {
    const out = mdText('![img](https://evil.example/x.png) [a](javascript:x) <details open> *b* _c_ ~d~ `e` | www.evil.example &amp;');
    expect(out).toBe(
      '\\!\\[img\\]\\(https\\://evil.example/x.png\\) \\[a\\]\\(javascript:x\\) &lt;details open&gt; \\*b\\* \\_c\\_ \\~d\\~ \\`e\\` \\| www\\.evil.example &amp;amp;',
    );
  });
});

describe('HTML and XML', () => {
  it('escapeMarkup turns markup characters into entities and controls into visible text', () => {
    expect(escapeMarkup(`<a href="x" onclick='y'>&</a>\u001b\u0000`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;\\x1b\\x00');
  });
});

describe('GitHub workflow commands', () => {
  it('ghData encodes %, CR and LF; ghProperty also : and ,', () => {
    expect(ghData('100%\r\n::error::x')).toBe('100%25%0D%0A::error::x');
    expect(ghProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
  });
});
