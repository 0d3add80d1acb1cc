/** An audit entry's actor as a person reads it: a name, and what kind of actor it is. */
export function actorLabel(entry: {
  actorType: string;
  actorId?: string | null;
  actorName?: string | null;
}): { name: string; kind: string } {
  switch (entry.actorType) {
    case 'SYSTEM':
      return { name: 'System', kind: 'the platform itself' };
    case 'API_KEY':
      return { name: entry.actorName ?? entry.actorId ?? 'Unknown key', kind: 'API key' };
    default:
      // a failed sign-in has no known user
      return entry.actorId
        ? { name: entry.actorName ?? entry.actorId, kind: 'user' }
        : { name: 'Anonymous', kind: 'not signed in' };
  }
}
