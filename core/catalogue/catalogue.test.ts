import { describe, expect, it } from 'vitest';
import { catalogue, flatten, pathParamNames } from './index.js';

// Spec section 7 "REST API", written out one operation a line. Path values are
// normalised to `{}` so the names the catalogue picks do not matter here.
const SPEC = `
POST /call
GET /call
GET /call/{}
PATCH /call/{}
DELETE /call/{}
POST /call/phone
POST /call/web
GET /v2/call/export
GET /v2/call
GET /v2/call/metadata
GET /v2/assistant
GET /v2/phone-number
GET /chat
POST /chat
GET /chat/{}
DELETE /chat/{}
POST /chat/responses
POST /chat/web
POST /chat/web/responses
POST /campaign
GET /campaign
GET /campaign/paginated
GET /campaign/{}
PATCH /campaign/{}
DELETE /campaign/{}
POST /session
GET /session
GET /session/{}
PATCH /session/{}
DELETE /session/{}
POST /support/ticket
POST /assistant
GET /assistant
GET /assistant/{}
PATCH /assistant/{}
PUT /assistant/{}
DELETE /assistant/{}
GET /assistant/{}/version
POST /phone-number/import/twilio
POST /phone-number/import/vonage
POST /phone-number
GET /phone-number
GET /phone-number/{}
PATCH /phone-number/{}
DELETE /phone-number/{}
POST /tool
GET /tool
GET /tool/{}
PATCH /tool/{}
DELETE /tool/{}
POST /file/upload
POST /file
GET /file
GET /file/{}
PATCH /file/{}
DELETE /file/{}
POST /knowledge-base
GET /knowledge-base
GET /knowledge-base/{}
PATCH /knowledge-base/{}
DELETE /knowledge-base/{}
GET /workflow
POST /workflow
GET /workflow/{}
DELETE /workflow/{}
PATCH /workflow/{}
POST /workflow/generate
POST /squad
GET /squad
GET /squad/{}
PATCH /squad/{}
DELETE /squad/{}
GET /test-suite
POST /test-suite
GET /test-suite/{}
PATCH /test-suite/{}
DELETE /test-suite/{}
GET /test-suite/{}/test
POST /test-suite/{}/test
GET /test-suite/{}/test/{}
PATCH /test-suite/{}/test/{}
DELETE /test-suite/{}/test/{}
GET /test-suite/{}/run
POST /test-suite/{}/run
GET /test-suite/{}/run/{}
PATCH /test-suite/{}/run/{}
DELETE /test-suite/{}/run/{}
POST /analytics
GET /log
DELETE /log
GET /logs
DELETE /logs
POST /org
GET /org
GET /org/{}
PATCH /org/{}
DELETE /org/{}
GET /org/{}/user
DELETE /org/{}/leave
DELETE /org/{}/member/{}/leave
POST /org/{}/invite
PATCH /org/{}/role
GET /org/{}/auth
POST /token
GET /token
GET /token/{}
PATCH /token/{}
DELETE /token/{}
POST /credential
GET /credential
GET /credential/{}
PATCH /credential/{}
DELETE /credential/{}
POST /credential/session
POST /credential/webhook
POST /credential/trigger
POST /template
GET /template
GET /template/pinned
GET /template/{}
PATCH /template/{}
DELETE /template/{}
GET /voice-library/{}
GET /voice-library/{}/accents
POST /voice-library/sync/{}
POST /voice-library/sync
POST /voice-library/create-sesame-voice
GET /{}/workflows
GET /{}/workflows/{}/hooks
GET /{}/locations
GET /{}/voices/search
GET /{}/voice/search
POST /{}/voices/add
POST /{}/voice/add
POST /11labs/voice/clone
`.trim().split('\n');

const entries = flatten(catalogue);
const key = (method: string, path: string) => `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`;

describe('catalogue', () => {
  it('lists exactly the 135 operations of the spec, each once', () => {
    expect(SPEC).toHaveLength(135);
    const ours = entries.map((e) => key(e.op.method, e.op.path));
    const dupes = ours.filter((k, i) => ours.indexOf(k) !== i);
    expect(dupes).toEqual([]);
    expect(ours.filter((k) => !SPEC.includes(k))).toEqual([]); // extra
    expect(SPEC.filter((k) => !ours.includes(k))).toEqual([]); // missing
  });

  it('secures every operation but the credential webhook', () => {
    const open = entries.filter((e) => e.op.auth === 'none').map((e) => key(e.op.method, e.op.path));
    expect(open).toEqual(['POST /credential/webhook']);
  });

  it('sends multipart only for uploads and no body for GET and DELETE', () => {
    const multipart = entries.filter((e) => e.op.body === 'multipart').map((e) => key(e.op.method, e.op.path));
    expect(multipart.sort()).toEqual(['POST /11labs/voice/clone', 'POST /file', 'POST /file/upload']);
    for (const e of entries) {
      if (e.op.method === 'GET' || e.op.method === 'DELETE') expect(e.op.body, key(e.op.method, e.op.path)).toBe('none');
      else expect(e.op.body, key(e.op.method, e.op.path)).not.toBe('none');
    }
  });

  it('marks the paginated lists and the plain ones with their paging parameters', () => {
    for (const e of entries) {
      const k = key(e.op.method, e.op.path);
      if (e.op.list === 'paginated') expect(e.op.query, k).toEqual(expect.arrayContaining(['page', 'sortOrder', 'limit']));
      if (e.op.list === 'plain' && e.op.query.length > 0) expect(e.op.query, k).toEqual(expect.arrayContaining(['limit', 'createdAtLt']));
    }
    const paginated = entries.filter((e) => e.op.list === 'paginated').map((e) => e.op.path);
    expect(paginated).toEqual(expect.arrayContaining(['/chat', '/session', '/campaign', '/campaign/paginated', '/v2/call', '/v2/assistant', '/v2/phone-number']));
  });

  it('flags the deprecated operations', () => {
    const dep = entries.filter((e) => e.op.deprecated).map((e) => key(e.op.method, e.op.path)).sort();
    expect(dep).toEqual([
      'DELETE /logs', 'GET /logs', 'GET /{}/voices/search', 'POST /call/phone', 'POST /file/upload',
      'POST /phone-number/import/twilio', 'POST /phone-number/import/vonage', 'POST /{}/voices/add',
    ].sort());
  });

  it('gives every operation a unique command and a summary', () => {
    const commands = entries.map((e) => [...e.resource, e.action].join(' '));
    expect(new Set(commands).size).toBe(commands.length);
    for (const e of entries) expect(e.op.summary.length).toBeGreaterThan(5);
    expect(commands).toContain('test-suite run create');
    expect(commands).toContain('phone-number import-twilio');
    expect(pathParamNames('/test-suite/{testSuiteId}/run/{id}')).toEqual(['testSuiteId', 'id']);
  });
});
