import { describe, expect, it } from 'vitest';
import { parseErrorBody } from './parse-error-body.js';

describe('parseErrorBody', () => {
  it('reads the OpenAI shape', () => {
    expect(parseErrorBody('{"error":{"message":"m","type":"t","code":"c","param":"p"}}')).toEqual({ message: 'm', type: 't', code: 'c', param: 'p' });
  });

  it.each([
    ['a string error', '{"error":"Model not loaded"}', { message: 'Model not loaded' }],
    ['a top-level message', '{"message":"bad key","code":401}', { message: 'bad key', code: '401' }],
    ['FastAPI detail', '{"detail":"Not Found"}', { message: 'Not Found' }],
    ['an array (Google style)', '[{"error":{"message":"quota","code":429,"status":"RESOURCE_EXHAUSTED"}}]', { message: 'quota', code: '429' }],
    ['leading blank lines', '\n\n  {"error":{"message":"late"}}', { message: 'late' }],
  ])('reads %s', (_label, body, expected) => {
    expect(parseErrorBody(body)).toEqual(expected);
  });

  it('keeps a collapsed excerpt of an HTML page, at most 500 characters, and never throws', () => {
    const page = `<html><head><title>502 Bad Gateway</title></head>\n<body>${'x'.repeat(2_000)}</body></html>`;
    const parsed = parseErrorBody(page);
    expect(parsed.message).toBeUndefined();
    expect(parsed.excerpt).toMatch(/^<html><head><title>502 Bad Gateway<\/title><\/head> <body>x+/);
    expect(parsed.excerpt!.length).toBe(500);
  });

  it('survives truncated JSON, JSON without an error, and an empty body', () => {
    expect(parseErrorBody('{"error":{"mess')).toEqual({ excerpt: '{"error":{"mess' });
    expect(parseErrorBody('{"ok":true}')).toEqual({ excerpt: '{"ok":true}' });
    expect(parseErrorBody('')).toEqual({});
    expect(parseErrorBody('   \n')).toEqual({});
  });
});
