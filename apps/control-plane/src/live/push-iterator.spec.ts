import { describe, expect, it } from 'vitest';
import { PushIterator } from './push-iterator';

describe('PushIterator', () => {
  it('hands pushed values to next() in order, whether pushed before or while waiting', async () => {
    const iterator = new PushIterator<number>(() => undefined);
    iterator.push(1);
    const waiting = [iterator.next(), iterator.next()];
    iterator.push(2);
    expect(await Promise.all(waiting)).toEqual([
      { value: 1, done: false },
      { value: 2, done: false },
    ]);
  });

  it('ends a waiting next() at once on return() and runs onClose exactly once', async () => {
    let closes = 0;
    const iterator = new PushIterator<number>(() => (closes += 1));
    const waiting = iterator.next();
    expect(await iterator.return()).toEqual({ value: undefined, done: true });
    expect(await waiting).toEqual({ value: undefined, done: true });
    await iterator.return();
    iterator.push(3);
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    expect(closes).toBe(1);
    expect(iterator.isClosed).toBe(true);
  });

  it('keeps only the newest values for a slow reader', async () => {
    const iterator = new PushIterator<number>(() => undefined, 2);
    for (const value of [1, 2, 3, 4]) iterator.push(value);
    expect([(await iterator.next()).value, (await iterator.next()).value]).toEqual([3, 4]);
  });

  it('closes on throw() and rejects with the error', async () => {
    let closed = false;
    const iterator = new PushIterator<number>(() => (closed = true));
    await expect(iterator.throw(new Error('gone'))).rejects.toThrow('gone');
    expect(closed).toBe(true);
  });

  it('ends after the queued values and a last one, running onClose once', async () => {
    let closes = 0;
    const iterator = new PushIterator<number>(() => (closes += 1));
    iterator.push(1);
    iterator.end(2);
    iterator.end(3);
    iterator.push(4);
    expect([await iterator.next(), await iterator.next(), await iterator.next()]).toEqual([
      { value: 1, done: false },
      { value: 2, done: false },
      { value: undefined, done: true },
    ]);
    expect(closes).toBe(1);
  });

  it('ends a waiting next() with the last value', async () => {
    const iterator = new PushIterator<number>(() => undefined);
    const waiting = iterator.next();
    iterator.end(7);
    expect(await waiting).toEqual({ value: 7, done: false });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });
});
