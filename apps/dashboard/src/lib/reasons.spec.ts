import { describe, expect, it } from 'vitest';
import { formatWait, reasonExplained, reasonLabel } from './reasons';

describe('the log’s reasons', () => {
  it('name each engine reason and explain an unknown one by its code', () => {
    expect(reasonLabel('fail-closed')).toBe('Fail-closed');
    expect(reasonLabel('something-new')).toBe('something-new');
    expect(reasonExplained('something-new')).toBe('The engine’s reason: something-new.');
  });

  it('read waits as a person does', () => {
    expect(formatWait(-1)).toBe('never');
    expect(formatWait(0)).toBe('0 ms');
    expect(formatWait(250)).toBe('250 ms');
    expect(formatWait(1500)).toBe('1.5 s');
    expect(formatWait(45_000)).toBe('45 s');
    expect(formatWait(90_000)).toBe('1.5 min');
  });
});
