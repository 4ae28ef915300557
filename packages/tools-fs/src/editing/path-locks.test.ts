import { describe, expect, it } from 'vitest';
import { PathLocks } from './path-locks.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('PathLocks', () => {
  it('runs tasks on one key one at a time, in order, and different keys side by side', async () => {
    const locks = new PathLocks();
    const log: string[] = [];
    let inside = 0;
    let most = 0;
    const task = (name: string) => async () => {
      inside += 1;
      most = Math.max(most, inside);
      log.push(`${name}+`);
      await tick();
      log.push(`${name}-`);
      inside -= 1;
      return name;
    };
    const results = await Promise.all([locks.run('a', task('1')), locks.run('a', task('2')), locks.run('a', task('3'))]);
    expect(results).toEqual(['1', '2', '3']);
    expect(log).toEqual(['1+', '1-', '2+', '2-', '3+', '3-']);
    expect(most).toBe(1);
    const both: string[] = [];
    await Promise.all([locks.run('a', async () => { both.push('a+'); await tick(); both.push('a-'); }), locks.run('b', async () => { both.push('b+'); await tick(); both.push('b-'); })]);
    expect(both.slice(0, 2).sort()).toEqual(['a+', 'b+']);
    expect(locks.size).toBe(0);
  });

  it('releases the key when a task throws, and passes the error on', async () => {
    const locks = new PathLocks();
    await expect(locks.run('a', async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(await locks.run('a', async () => 'next')).toBe('next');
    expect(locks.size).toBe(0);
  });
});
