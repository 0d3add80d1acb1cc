import { describe, expect, it } from 'vitest';
import { actorLabel } from './actor';

describe('actorLabel', () => {
  it('names users, keys and the system, falling back to the id', () => {
    expect(
      actorLabel({ actorType: 'USER', actorId: 'usr_1', actorName: 'ada@example.com' }),
    ).toEqual({ name: 'ada@example.com', kind: 'user' });
    expect(actorLabel({ actorType: 'USER', actorId: 'usr_1', actorName: null })).toEqual({
      name: 'usr_1',
      kind: 'user',
    });
    expect(actorLabel({ actorType: 'USER', actorId: null })).toEqual({
      name: 'Anonymous',
      kind: 'not signed in',
    });
    expect(actorLabel({ actorType: 'API_KEY', actorId: 'key_1', actorName: 'billing' })).toEqual({
      name: 'billing',
      kind: 'API key',
    });
    expect(actorLabel({ actorType: 'SYSTEM', actorId: null })).toMatchObject({ name: 'System' });
  });
});
