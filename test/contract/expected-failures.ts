import type { Pass } from './contract-arguments.js';
import type { CallOutcome } from './run-description.js';

/**
 * Calls of the contract run that fail for a reason outside the generated server, each with the evidence:
 * - `description`: the description is wrong or contradicts itself (the JSON pointer shows where);
 * - `mock`: Prism cannot validate what OpenAPI prescribes and the server sends (the pointer shows the schema).
 * The contract test fails on a failure not listed here and on an entry that no longer fails (stale), so the list
 * only ever documents real, current failures. `operations: '*'` covers every call of the description whose reason
 * contains `match` (a defect repeated over many operations); a list names each operation, and each must still fail.
 */
export type ExpectedFailure = {
  description: string;
  operations: string[] | '*';
  pass: Pass | 'both';
  kind: 'description' | 'mock';
  pointer: string;
  reason: string;
  /** A fragment of Prism's reason, or of the tool's error text for calls that were not sent. */
  match: string;
};

export const EXPECTED_FAILURES: ExpectedFailure[] = [
  {
    description: 'sendgrid-v3',
    operations: ['GET /contactdb/segments/{segment_id}/recipients'],
    pass: 'both',
    kind: 'description',
    pointer: '#/paths/~1contactdb~1segments~1{segment_id}~1recipients/parameters/0',
    reason:
      'SendGrid types segment_id integer here and string on /contactdb/segments/{segment_id} and the Marketing ' +
      'segments: the server takes it as a string (OTM_PARAMETER_TYPE_BELIEVED, pinnable), so a numeric id passes ' +
      'as the same text, and the sample string the contract run sends is no integer.',
    match: 'Request path parameter segment_id must be integer',
  },
  {
    description: 'apis-guru-sendgrid',
    operations: ['GET /contactdb/segments/{segment_id}/recipients'],
    pass: 'both',
    kind: 'description',
    pointer: '#/paths/~1contactdb~1segments~1{segment_id}~1recipients/parameters/0',
    reason:
      'SendGrid types segment_id integer here and string on /contactdb/segments/{segment_id} and the Marketing ' +
      'segments: the server takes it as a string (OTM_PARAMETER_TYPE_BELIEVED, pinnable), so a numeric id passes ' +
      'as the same text, and the sample string the contract run sends is no integer.',
    match: 'Request path parameter segment_id must be integer',
  },
  {
    description: 'slack-web',
    operations: '*',
    pass: 'both',
    kind: 'description',
    pointer: '#/paths/~1admin.apps.approve/post/parameters/0 (and 77 more operations)',
    reason:
      'Slack declares its OAuth token a second time, as a required `token` header parameter. Slack has no such header; ' +
      'the server sends the token once, as `Authorization: Bearer`, as the slackAuth security scheme says and Slack accepts.',
    match: "Request header must have required property 'token'",
  },
  {
    description: 'slack-web',
    operations: '*',
    pass: 'both',
    kind: 'description',
    pointer: '#/paths/~1admin.apps.approved.list/get/parameters/0 (and 33 more operations)',
    reason:
      'Slack declares its OAuth token a second time, as a required `token` query parameter. The server sends it once, ' +
      'in the Authorization header, which Slack accepts for every method and which keeps it out of URLs and logs.',
    match: "Request query must have required property 'token'",
  },
  {
    description: 'xero-accounting',
    operations: '*',
    pass: 'both',
    kind: 'description',
    pointer:
      '#/paths/~1Accounts~1{AccountID}~1Attachments~1{FileName}/put/requestBody/content/application~1octet-stream/schema (and 21 more operations)',
    reason:
      'Attachment uploads are application/octet-stream bodies typed `format: byte` (base64 text). Xero takes the raw ' +
      'file bytes, which the server sends; OpenAPI 3.0 writes raw bytes as `format: binary`.',
    match: 'Request body must match format "byte"',
  },
  {
    description: 'xero-accounting',
    operations: ['GET /Contacts/{ContactNumber}', 'GET /Journals/{JournalID}'],
    pass: 'required',
    kind: 'description',
    pointer: '#/paths/~1Contacts~1{ContactNumber} and #/paths/~1Journals~1{JournalID}',
    reason:
      '/Contacts/{ContactID} and /Contacts/{ContactNumber} (likewise /Journals/{JournalID} and /Journals/{JournalNumber}) ' +
      'are the same template; OpenAPI says such paths MUST NOT both exist. Prism routes the request to the other one.',
    match: 'Request path parameter',
  },
  {
    description: 'box-platform',
    operations: ['POST /oauth2/revoke'],
    pass: 'optional',
    kind: 'description',
    pointer: '#/components/schemas/PostOAuth2Revoke/required',
    reason: 'The revoke body requires `grant_type` but does not declare it among its properties, so no argument can carry it.',
    match: "must have required property 'grant_type'",
  },
  {
    description: 'box-platform',
    operations: ['GET /search'],
    pass: 'optional',
    kind: 'description',
    pointer: '#/paths/~1search/get/parameters (mdfilters)',
    reason:
      '`mdfilters` is an array of objects in the query, which OpenAPI styles cannot serialise (it needs `content`); ' +
      'the server sends each object as JSON, Prism expects objects it cannot parse from a query string.',
    match: 'Request query parameter mdfilters',
  },
  {
    description: 'box-platform',
    operations: ['POST /files/content', 'POST /files/{file_id}/content'],
    pass: 'optional',
    kind: 'mock',
    pointer: '#/paths/~1files~1content/post/requestBody/content/multipart~1form-data/schema/properties/attributes',
    reason:
      'Prism reads every multipart part as a string. The server sends the `attributes` object as an application/json ' +
      'part, as OpenAPI prescribes for objects in multipart bodies (and as Box expects).',
    match: 'Request body property attributes must be object',
  },
  {
    description: 'pihole-ftl',
    operations: ['POST /teleporter'],
    pass: 'optional',
    kind: 'mock',
    pointer: 'teleporter.yaml#/components/paths/teleporter/post/requestBody/content/multipart~1form-data/schema/properties/import',
    reason: 'Prism reads every multipart part as a string; the server sends the `import` object as an application/json part.',
    match: 'Request body property import must be object',
  },
  {
    description: 'openai-api',
    operations: ['POST /files'],
    pass: 'optional',
    kind: 'mock',
    pointer: '#/components/schemas/CreateFileRequest/properties/expires_after',
    reason: 'Prism reads every multipart part as a string; the server sends `expires_after` as an application/json part.',
    match: 'Request body property expires_after must be object',
  },
  {
    description: 'openai-api',
    operations: ['POST /audio/transcriptions'],
    pass: 'optional',
    kind: 'mock',
    pointer: '#/components/schemas/CreateTranscriptionRequest/properties',
    reason:
      'Arrays in a multipart body travel as one part per item under the same name; Prism keeps only the last part, ' +
      'a string, and reports that the array is not an array.',
    match: 'must be array',
  },
  {
    description: 'twilio-api-v2010',
    operations: [
      'POST /2010-04-01/Accounts/{AccountSid}/Calls.json',
      'POST /2010-04-01/Accounts/{AccountSid}/Calls/{CallSid}/Recordings.json',
      'POST /2010-04-01/Accounts/{AccountSid}/Conferences/{ConferenceSid}/Participants.json',
      'POST /2010-04-01/Accounts/{AccountSid}/ConnectApps/{Sid}.json',
      'POST /2010-04-01/Accounts/{AccountSid}/Messages.json',
    ],
    pass: 'optional',
    kind: 'mock',
    pointer: '#/paths/~12010-04-01~1Accounts~1{AccountSid}~1Calls.json/post/requestBody/content/application~1x-www-form-urlencoded',
    reason:
      'Arrays in a form body repeat their key (OpenAPI’s default: style form, explode true), as Twilio expects; without ' +
      'an explicit `encoding` Prism keeps only the last value and reports that the array is not an array.',
    match: 'must be array',
  },
  {
    description: 'adyen-terminal-api-v1',
    operations: ['POST /cardreaderapdu'],
    pass: 'optional',
    kind: 'description',
    pointer: '#/components/schemas/CardReaderAPDURequest/properties/APDUClass',
    reason:
      '`APDUClass`, `APDUInstruction`, `APDUPar1` and `APDUPar2` are required, `format: byte` (base64) and `pattern: ^.{1,1}$`: ' +
      'no one-character string is base64, so no value satisfies them; the call leaves them out, and the server refuses ' +
      'a body without its required fields before sending it.',
    match: 'APDUClass is required when',
  },
  {
    description: 'pagerduty-rest',
    operations: [
      'PUT /automation_actions/actions/{id}',
      'PUT /automation_actions/runners/{id}',
      'PUT /incidents/{id}/custom_fields/values',
      'PUT /services/{id}/custom_fields/values',
    ],
    pass: 'both',
    kind: 'description',
    pointer: '#/paths/~1automation_actions~1actions~1{id}/put/requestBody/content/application~1json/schema/properties/action',
    reason:
      'The `oneOf` variants overlap (every field optional, or the same fields): a value matching one matches the ' +
      'others, so `oneOf` (exactly one) fails for it. Only the discriminator tells them apart, and JSON Schema ' +
      'validation, Prism’s included, ignores discriminators.',
    match: 'must match exactly one schema in oneOf',
  },
  {
    description: 'sendgrid-v3',
    operations: ['PUT /marketing/singlesends/{id}/schedule'],
    pass: 'optional',
    kind: 'description',
    pointer: '#/paths/~1marketing~1singlesends~1{id}~1schedule/put/parameters/0/schema/properties/send_at',
    reason: '`send_at` is `enum: [now]` and `format: date-time`; "now" is not a date-time, so no value satisfies both.',
    match: 'must match format "date-time"',
  },
  // The same vendors in APIs.guru's collection (the corpus without a specs folder): the same defects where the
  // collection carries the same text, and a few of its own.
  {
    description: 'apis-guru-slack',
    operations: '*',
    pass: 'both',
    kind: 'description',
    pointer: '#/paths/~1admin.apps.approve/post/parameters/0 (and the other methods that declare it)',
    reason:
      'As in slack-web: the OAuth token is declared a second time, as a required `token` header parameter; the ' +
      'server sends it once, as `Authorization: Bearer`, as the slackAuth scheme says and Slack accepts.',
    match: "Request header must have required property 'token'",
  },
  {
    description: 'apis-guru-slack',
    operations: '*',
    pass: 'both',
    kind: 'description',
    pointer: '#/paths/~1auth.revoke/get/parameters/0 (and the other methods that declare it)',
    reason:
      'As in slack-web: the OAuth token is declared again as a required `token` query parameter; it travels in the Authorization header.',
    match: "Request query must have required property 'token'",
  },
  {
    description: 'apis-guru-xero-accounting',
    operations: '*',
    pass: 'both',
    kind: 'description',
    pointer: '#/paths/~1Accounts~1{AccountID}~1Attachments~1{FileName}/put/requestBody (and every attachment upload)',
    reason:
      'As in xero-accounting: attachment uploads are application/octet-stream bodies typed `format: byte` (base64 ' +
      'text); Xero takes the raw file bytes, which the server sends.',
    match: 'Request body must match format "byte"',
  },
  {
    description: 'apis-guru-box',
    operations: ['POST /oauth2/revoke'],
    pass: 'optional',
    kind: 'description',
    pointer: '#/components/schemas/PostOAuth2Revoke/required',
    reason: 'As in box-platform: the revoke body requires `grant_type` without declaring it, so no argument can carry it.',
    match: "must have required property 'grant_type'",
  },
  {
    description: 'apis-guru-box',
    operations: ['GET /search'],
    pass: 'optional',
    kind: 'description',
    pointer: '#/paths/~1search/get/parameters (mdfilters)',
    reason: 'As in box-platform: `mdfilters` is an array of objects in the query, which no OpenAPI style serialises.',
    match: 'Request query parameter mdfilters',
  },
  {
    description: 'apis-guru-box',
    operations: ['POST /files/content', 'POST /files/{file_id}/content'],
    pass: 'optional',
    kind: 'mock',
    pointer: '#/paths/~1files~1content/post/requestBody/content/multipart~1form-data/schema/properties/attributes',
    reason: 'As in box-platform: Prism reads every multipart part as a string; the server sends `attributes` as a JSON part.',
    match: 'Request body property attributes must be object',
  },
  {
    description: 'apis-guru-box',
    operations: [
      'PUT /metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema#add',
      'PUT /metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema#delete',
      'PUT /metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema#update',
    ],
    pass: 'optional',
    kind: 'description',
    pointer: '#/paths/~1metadata_templates~1enterprise~1securityClassification-6VMVochwUWo~1schema#add/put/requestBody',
    reason:
      'Three operations share one path and method, told apart only by a URL fragment, each with its own body; Prism ' +
      'validates every request against another of them, whose `op` values differ.',
    match: 'Request body property 0.op must be equal to one of the allowed values',
  },
  {
    description: 'apis-guru-twilio-api',
    operations: [
      'POST /2010-04-01/Accounts/{AccountSid}/Calls.json',
      'POST /2010-04-01/Accounts/{AccountSid}/Calls/{CallSid}/Recordings.json',
      'POST /2010-04-01/Accounts/{AccountSid}/Conferences/{ConferenceSid}/Participants.json',
      'POST /2010-04-01/Accounts/{AccountSid}/ConnectApps/{Sid}.json',
      'POST /2010-04-01/Accounts/{AccountSid}/Messages.json',
    ],
    pass: 'optional',
    kind: 'mock',
    pointer: '#/paths/~12010-04-01~1Accounts~1{AccountSid}~1Calls.json/post/requestBody/content/application~1x-www-form-urlencoded',
    reason: 'As in twilio-api-v2010: arrays in a form body repeat their key, as Twilio expects; Prism keeps only the last value.',
    match: 'must be array',
  },
  {
    description: 'apis-guru-sendgrid',
    operations: ['PUT /marketing/singlesends/{id}/schedule'],
    pass: 'optional',
    kind: 'description',
    pointer: '#/paths/~1marketing~1singlesends~1{id}~1schedule/put/requestBody (send_at)',
    reason: 'As in sendgrid-v3: `send_at` is `enum: [now]` and `format: date-time`; no value satisfies both.',
    match: 'must match format "date-time"',
  },
  {
    description: 'apis-guru-spotify',
    operations: ['PUT /me/episodes', 'PUT /me/tracks'],
    pass: 'optional',
    kind: 'description',
    pointer: '#/paths/~1me~1tracks/put/requestBody/content/application~1json/schema/required',
    reason: 'The body requires `uris` but declares only `ids` among its properties, so no argument can carry it.',
    match: "Request body must have required property 'uris'",
  },
  {
    description: 'apis-guru-spotify',
    operations: ['PUT /playlists/{playlist_id}/images'],
    pass: 'optional',
    kind: 'description',
    pointer: '#/paths/~1playlists~1{playlist_id}~1images/put/requestBody/content/image~1jpeg/schema',
    reason: 'The image/jpeg body is typed `format: byte` (base64 text); the server sends the image bytes, as Spotify takes them.',
    match: 'Request body must match format "byte"',
  },
  {
    description: 'octokit-github',
    operations: '*',
    pass: 'both',
    kind: 'description',
    pointer:
      '#/components/parameters/workflow-id/schema, pages-deployment-id, and the bodies of projectsV2 items, issue labels and CodeQL variant analyses',
    reason:
      '`oneOf` alternatives that overlap: `workflow_id` and `pages_deployment_id` are `oneOf: [integer, string]` (in a ' +
      'path every integer is also a string), and the four bodies have variants a value can match together, so ' +
      '`oneOf` (exactly one) fails. As with pagerduty-rest, only a discriminator or the API itself tells them apart.',
    match: 'must match exactly one schema in oneOf',
  },
];

/** The entry that explains a failed call, if any. */
export function expectationFor(description: string, outcome: CallOutcome): ExpectedFailure | undefined {
  if (outcome.verdict === 'accepted') return undefined;
  return EXPECTED_FAILURES.find(
    (entry) =>
      entry.description === description &&
      (entry.operations === '*' || entry.operations.includes(outcome.operation)) &&
      (entry.pass === 'both' || entry.pass === outcome.pass) &&
      (outcome.reason ?? outcome.text ?? '').includes(entry.match),
  );
}

/** Entries of a description that explained no failure of this run: each listed operation must still fail. */
export function staleEntries(description: string, outcomes: CallOutcome[]): string[] {
  const stale: string[] = [];
  for (const entry of EXPECTED_FAILURES.filter((candidate) => candidate.description === description)) {
    const explained = outcomes.filter((outcome) => expectationFor(description, outcome) === entry);
    if (entry.operations === '*') {
      if (explained.length === 0) stale.push(`${entry.match}: no call fails this way any more`);
    } else {
      for (const operation of entry.operations)
        if (!explained.some((outcome) => outcome.operation === operation)) stale.push(`${operation} (${entry.match}) no longer fails`);
    }
  }
  return stale;
}
