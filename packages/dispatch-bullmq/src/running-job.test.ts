import { describe, expect, it } from 'vitest';
import { RunningJob } from './running-job.js';

describe('RunningJob', () => {
  it('a stop before the signal is read: the signal is made already aborted, and race rejects at once', async () => {
    const job = new RunningJob(null);
    job.stop('cancelled');
    job.stop('deadline'); // the first reason stays
    expect(job.interruption).toBe('cancelled');
    expect(job.signal.aborted).toBe(true);
    await expect(job.race(new Promise(() => undefined))).rejects.toThrow('cancelled by the caller');
  });

  it('a stop while the body runs aborts the signal it read and settles race, though the body ignores it', async () => {
    const job = new RunningJob(null);
    const signal = job.signal;
    const racing = job.race(new Promise(() => undefined));
    job.stop('cancelled');
    expect(signal.aborted).toBe(true);
    await expect(racing).rejects.toThrow('cancelled by the caller');
  });

  it('the deadline stops a body still running then', async () => {
    const job = new RunningJob(Date.now() + 20);
    const racing = job.race(new Promise(() => undefined));
    await expect(racing).rejects.toThrow('deadline passed');
    expect(job.interruption).toBe('deadline');
    expect(job.signal.aborted).toBe(true);
  });

  it('a body that answers in time: its value, no stop, and finish clears the deadline', async () => {
    const job = new RunningJob(Date.now() + 20);
    await expect(job.race(Promise.resolve('ok'))).resolves.toBe('ok');
    job.finish();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(job.interruption).toBeUndefined();
  });
});
