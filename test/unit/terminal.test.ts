import { describe, expect, it } from 'vitest';
import { colorEnabled, isCi, terminalProgress } from '../../src/cli/terminal.js';

describe('terminal manners', () => {
  it('colours a terminal unless NO_COLOR; FORCE_COLOR wins either way', () => {
    expect(colorEnabled({}, true)).toBe(true);
    expect(colorEnabled({}, false)).toBe(false);
    expect(colorEnabled({ NO_COLOR: '1' }, true)).toBe(false);
    expect(colorEnabled({ NO_COLOR: '' }, true)).toBe(true);
    expect(colorEnabled({ TERM: 'dumb' }, true)).toBe(false);
    expect(colorEnabled({ FORCE_COLOR: '1', NO_COLOR: '1' }, false)).toBe(true);
    expect(colorEnabled({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colorEnabled({ FORCE_COLOR: '', NO_COLOR: '1' }, true)).toBe(false);
    expect(isCi({ CI: 'true' })).toBe(true);
    expect(isCi({ CI: 'false' })).toBe(false);
    expect(isCi({})).toBe(false);
  });

  it('draws one progress line in place and erases it', () => {
    let out = '';
    let clock = 0;
    const progress = terminalProgress(
      (text) => (out += text),
      () => clock,
    );
    progress.stage('load');
    clock = 1500;
    progress.stage('plan');
    progress.done();
    expect(out).toBe('\r\u001b[2KReading the description… (0.0 s)\r\u001b[2KPlanning tools… (1.5 s)\r\u001b[2K');
  });
});
