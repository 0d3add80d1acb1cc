import { describe, expect, it } from 'vitest';
import { reasonExplained, reasonLabel } from './reasons';

describe('the log’s reasons', () => {
  it('name each engine reason and explain an unknown one by its code', () => {
    expect(reasonLabel('fail-closed')).toBe('Fail-closed');
    expect(reasonLabel('something-new')).toBe('something-new');
    expect(reasonExplained('something-new')).toBe('The engine’s reason: something-new.');
  });
});
