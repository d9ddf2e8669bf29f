// A non-ok answer becomes the ApiError subclass of its status, with the platform's body,
// the request id and the response reachable; on every transport.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, AuthenticationError, BadRequestError, ConflictError, InternalServerError, NotFoundError, PermissionDeniedError, RateLimitError, UnprocessableEntityError } from './index.js';
import { TRANSPORTS, clientOn, startServer } from './node-testing.js';
import type { Reply, TestServer } from './node-testing.js';

let server: TestServer;
let reply: Reply = {};
beforeAll(async () => {
  server = await startServer(() => reply);
});
afterAll(() => server.close());

const cases = [
  [400, BadRequestError, 'Bad Request'],
  [401, AuthenticationError, 'Unauthorized'],
  [403, PermissionDeniedError, 'Forbidden'],
  [404, NotFoundError, 'Not Found'],
  [409, ConflictError, 'Conflict'],
  [422, UnprocessableEntityError, 'Unprocessable Entity'],
  [429, RateLimitError, 'Too Many Requests'],
  [500, InternalServerError, 'Internal Server Error'],
  [503, InternalServerError, 'Service Unavailable'],
  [418, ApiError, ''],
] as const;

describe.each(TRANSPORTS)('errors over %s', (kind) => {
  const client = (): ReturnType<typeof clientOn> => clientOn(kind, { apiKey: 'k', baseUrl: server.url, maxRetries: 0 });

  it.each(cases)('%i becomes %O with the parsed body', async (status, Class, reason) => {
    const body = { message: `thing ${status} failed`, error: reason, statusCode: status };
    reply = { status, body, headers: { 'x-request-id': `rid-${status}` } };
    const error = await client()
      .assistant.get('a1')
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    const e = error as ApiError;
    expect(e.status).toBe(status);
    expect(e.body).toEqual(body);
    expect(e.requestId).toBe(`rid-${status}`);
    // Statuses without a phrase of ours take the server's reason phrase, whatever it is.
    if (reason) expect(e.message).toBe(`${status} ${reason}: thing ${status} failed`);
    else expect(e.message).toMatch(new RegExp(`^${status}( .+)?: thing ${status} failed$`));
    expect(e.response.status).toBe(status);
    expect(e.response.headers.get('x-request-id')).toBe(`rid-${status}`);
  });

  it('joins a validation message array with "; "', async () => {
    reply = { status: 400, body: { message: ['name must be a string', 'model is required'], error: 'Bad Request' } };
    await expect(client().assistant.create({ name: 'x' })).rejects.toThrow('400 Bad Request: name must be a string; model is required');
  });

  it('keeps a non-JSON error body as text', async () => {
    reply = { status: 502, body: '<html>bad gateway</html>' };
    const e = (await client()
      .assistant.list()
      .catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(InternalServerError);
    expect(e.body).toBe('<html>bad gateway</html>');
    expect(e.message).toBe('502 Bad Gateway: <html>bad gateway</html>');
  });

  it('reports a 404 the way a user reads it', async () => {
    reply = { status: 404, body: { message: 'Assistant not found' } };
    await expect(client().assistant.get('nope')).rejects.toThrow('404 Not Found: Assistant not found');
  });
});
