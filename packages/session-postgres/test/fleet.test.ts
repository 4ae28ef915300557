import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { SessionRecord } from '@weir/session';
import { checkApprovalFleet, settleApprovals, checkSessionFleet } from '@weir/session/testing';
import { createPostgresSessionStore } from '@weir/session-postgres';
import { startPostgres, type TestPostgres } from './fixtures/postgres-server.js';

// Heavy for this package (about 20 s): real processes. Sizes: 4 processes serving 8 sessions at a
// time each, 200 sessions, for 10 s once all four append: every 600 ms a process that is appending
// is SIGKILLed and replaced (4 to 15 kills, depending on how fast a replacement starts). That is enough for sessions to move
// between processes many times, for kills to land mid-append (the workers do nothing else) and for
// leases of killed writers to run out (500 ms) and be taken; more time adds counts, not cases.
const worker = fileURLToPath(new URL('./fixtures/fleet-worker.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');
const PROCESSES = 4;
const SESSIONS = 200;
const RUN_MS = 10_000;
const KILL_EVERY_MS = 600;
const LEASE_MS = 500;
// Beside the appends, each process suspends turns at approvals, answers other processes' requests
// and resumes sessions other processes answered (serveApprovalRoles), on sessions of their own.
const APPROVAL_SESSIONS = 24;

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server?.stop());

describe('a fleet on PostgreSQL', () => {
  it('four processes serve 200 sessions while being SIGKILLed: every acknowledged record is there, no two writers interleave, sessions move between processes', { timeout: 90_000 }, async () => {
    const pool = new pg.Pool({ connectionString: server.url, max: 4 });
    const store = createPostgresSessionStore({ pool, schema: 'fleet', leaseMs: LEASE_MS });
    for (let i = 0; i < SESSIONS; i += 1) await (await store.create({ id: `fleet-${i}` })).close();
    const approvalIds = Array.from({ length: APPROVAL_SESSIONS }, (_, i) => `approval-${i}`);
    for (const id of approvalIds) await (await store.create({ id })).close();
    // Each run of an approved write adds a row: no key, so a second run would show as a second row.
    await pool.query('CREATE TABLE fleet_markers (call_key text NOT NULL, session_id text NOT NULL, pid integer NOT NULL)');
    const writeMarker = async (callKey: string, sessionId: string) => {
      await pool.query('INSERT INTO fleet_markers (call_key, session_id, pid) VALUES ($1, $2, $3)', [callKey, sessionId, process.pid]);
    };
    const countMarkers = async () => new Map((await pool.query<{ call_key: string; runs: number }>('SELECT call_key, count(*)::int AS runs FROM fleet_markers GROUP BY call_key')).rows.map((row) => [row.call_key, row.runs]));

    const acks: string[] = [];
    const roles: string[] = [];
    let fenced = 0;
    // Some approved bodies are cut off on purpose: the process is SIGKILLed as its body starts (before
    // the marker is written) or just after the marker (before the result is recorded).
    let aiming = false;
    let bodies = 0;
    let rans = 0;
    let aimedKills = 0;
    const aimAt = (child: ChildProcess) => {
      if (!aiming || child.exitCode !== null || child.signalCode !== null || !child.kill('SIGKILL')) return;
      aimedKills += 1;
      child.once('exit', () => aiming && start());
    };
    const live = new Set<ChildProcess>();
    /** Workers that have acknowledged appends: the ones a kill is aimed at, so it lands mid-append, not mid-start. */
    const appending = new Set<ChildProcess>();
    const errors: string[] = [];
    const start = () => {
      const child = spawn(process.execPath, ['--conditions=@weir/source', '--import', tsx, worker, server.url, 'fleet', String(SESSIONS), String(LEASE_MS), String(APPROVAL_SESSIONS)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let buffered = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        const acked = lines.filter((line) => line.startsWith('ack '));
        acks.push(...acked);
        roles.push(...lines.filter((line) => line.startsWith('approval ')));
        fenced += lines.filter((line) => line.startsWith('fenced ')).length;
        for (const line of lines) {
          // Two bodies in five: one killed before its marker, one after (the rest may finish in a worker).
          if (line.startsWith('approval body ') && (bodies += 1) % 5 === 1) aimAt(child);
          if (line.startsWith('approval ran ') && (rans += 1) % 5 === 3) aimAt(child);
        }
        if (acked.length > 0) appending.add(child);
      });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('exit', (code, signal) => {
        live.delete(child);
        appending.delete(child);
        if (signal !== 'SIGKILL') errors.push(`worker ${child.pid} exited with ${code ?? signal}: ${stderr.slice(-1500)}`);
      });
      live.add(child);
    };
    const killed = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGKILL'))));

    for (let i = 0; i < PROCESSES; i += 1) start();
    // The clock starts once every process is appending (starting one takes seconds on a loaded machine).
    while (appending.size < PROCESSES) {
      expect(errors).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    let kills = 0;
    const started = Date.now();
    aiming = true;
    while (Date.now() - started < RUN_MS) {
      await new Promise((resolve) => setTimeout(resolve, KILL_EVERY_MS));
      const victims = [...appending];
      const victim = victims[Math.floor(Math.random() * victims.length)];
      if (victim !== undefined) {
        await killed(victim);
        kills += 1;
        start();
      }
    }
    aiming = false;
    await Promise.all([...live].map(killed));
    expect(errors).toEqual([]);

    const sessions = new Map<string, readonly SessionRecord[]>();
    for (let i = 0; i < SESSIONS; i += 1) sessions.set(`fleet-${i}`, await store.read(`fleet-${i}`));
    const figures = checkSessionFleet(acks, sessions);
    console.log(
      `fleet on PostgreSQL: ${PROCESSES} processes, ${SESSIONS} sessions, ${kills} SIGKILLs in ${RUN_MS / 1000} s; ${figures.acknowledged} appends acknowledged, all there; ` +
        `${figures.stored} records stored (${figures.stored - figures.acknowledged} written whose acknowledgement died with its process), ${figures.writers} writer epochs, none interleaved; ${figures.moved} sessions written by more than one process; ${fenced} writers fenced after a pause longer than the lease`,
    );
    // Floors, not targets: on a loaded machine a replacement takes seconds to start, and only a
    // process that is appending is killed, so the counts vary; these still prove each property.
    expect(kills).toBeGreaterThanOrEqual(PROCESSES);
    expect(figures.acknowledged).toBeGreaterThanOrEqual(200);
    expect(figures.moved).toBeGreaterThanOrEqual(5);
    // A session whose last writer was killed is free again once its lease ran out.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 100));
    await (await store.open('fleet-0')).close();

    // What the killed processes left half done (waiting, answered, cut off) is finished here, then checked.
    await settleApprovals({ store, sessionIds: approvalIds, writeMarker, print: (line) => roles.push(line) });
    const approvalSessions = new Map<string, readonly SessionRecord[]>();
    for (const id of approvalIds) approvalSessions.set(id, await store.read(id));
    const approvals = checkApprovalFleet(roles, approvalSessions, await countMarkers(), process.pid);
    console.log(
      `approvals on PostgreSQL: ${aimedKills} more SIGKILLs aimed at approved bodies; ` +
        `${approvals.sessions} sessions suspended at an approval; ${approvals.threeProcesses} suspended, answered and resumed by three different processes, ` +
        `${approvals.settledByTest} finished by the test after the kills; ${approvals.allowed} allowed: ${approvals.ranOnce} ran exactly once, ` +
        `${approvals.interrupted} cut off between start and result (reported interrupted, ${approvals.interruptedAfterRunning} of them had run, none ran twice); ${approvals.denied} denied, none ran`,
    );
    // Floors again: every session is checked whoever finished it; these show each path was taken.
    expect(approvals.threeProcesses).toBeGreaterThanOrEqual(1);
    expect(approvals.ranOnce).toBeGreaterThanOrEqual(3);
    expect(approvals.denied).toBe(APPROVAL_SESSIONS / 3);
    await pool.end();
  });
});
