// Multi-step tasks on murmel (Slack's Web API renamed by eval/rename.mjs), in its renamed vocabulary: skeld = channel,
// wendle = conversation, quib = message, torp = user, torpclan = user group, scrim = file, glint = reaction,
// frob = pin, vinn = thread, mk = message timestamp, headnote = topic, aimnote = purpose, duo = direct message.
//
// Each task: the request a person types; `script`, the rules the upstream answers by (first match wins, see
// lib/upstream.mjs; matchers in lib/match.mjs); `expect`, what scoring demands (`writes`, each with the arguments whose
// ids must have been served earlier) and refuses (`forbidden`), and which other accepted writes are fine (`allowed`);
// `solution`, one shortest right sequence of requests, `alsoRight`, other right ones (a refused first try, say), and
// `verified`, right ones that read their work back, each such read naming facts it must show (`shows`) or must not
// (`hides`): check-tasks.mjs replays them all, the self-test calls some through the generated server. A write the
// script accepts shows in the reads made after it (`afterAccepted`): a model that checks its work must not meet a
// world that contradicts it, and be led into making the write again. Held out like eval/tasks/heldout: whoever tunes the planner does not read this file.
import {
  KRELL,
  PEOPLE,
  afterAccepted,
  commonRules,
  history,
  members,
  ok,
  pagedByCursor,
  quib,
  refusal,
  scrim,
  skeld,
  skeldDirectory,
  torp,
  torpclan,
} from './murmel-objects.mjs';

const {
  me,
  dana,
  danaOld,
  danaMarsh,
  ravi,
  raviPatel,
  marco,
  marcoB,
  tomas,
  tomasAlvarado,
  tomasRuiz,
  lena,
  jonas,
  priya,
  omar,
  ben,
  benK,
  aiko,
} = PEOPLE;
const not = (value) => ({ $not: value });
const anyOf = (...options) => ({ $anyOf: options });
const text = (pattern) => ({ $pattern: pattern, $flags: 'i' });
/**
 * A skeld named in the request may be sent by id or by name where the operation takes either (postQuib does); where
 * it takes only ids, the name is refused, and a forbidden entry still must not count the right skeld by its name.
 */
const idOrName = (id, name) => anyOf(id, name, `#${name}`);

/** Murmel's conventions, as its description and Slack's documented behaviour have them. */
export const api = {
  id: 'murmel',
  /** A path that is no method of the API: Slack answers `unknown_method`. */
  unknownPath: { status: 404, body: refusal('unknown_method') },
  /** Slack refuses in the body (`ok: false`, HTTP 200); an HTTP error status is a refusal too. */
  refused: (response) => response.status >= 400 || response.body?.ok === false,
  /** GET methods that change something (everything else that changes something is a POST). */
  getWrites: [
    'GET /auth.revoke',
    'GET /plugos.uninstall',
    'GET /plugos.permissions.request',
    'GET /plugos.permissions.torps.request',
    'GET /scrims.remote.share',
    'GET /dialog.open',
    'GET /views.open',
    'GET /views.publish',
    'GET /views.push',
    'GET /views.update',
    'GET /workflows.stepCompleted',
    'GET /workflows.stepFailed',
    'GET /workflows.updateStep',
  ],
  common: commonRules(),
  /**
   * The answer to a request no rule scripts: the operation's own error, the one that says the thing asked for is not
   * there (`skeld_not_found`, `quib_not_found` …) where the operation has one; an admin method refuses a token that
   * is not an admin's.
   */
  unscripted(operation) {
    const codes = operation.responses?.default?.schema?.properties?.error?.enum;
    const has = (code) => !codes || codes.includes(code);
    if (operation.key.startsWith('POST /admin.') || operation.key.startsWith('GET /admin.')) {
      if (has('not_an_admin')) return { body: refusal('not_an_admin') };
      if (has('missing_scope')) return { body: refusal('missing_scope') };
    }
    const code =
      codes?.find((candidate) => /_not_found$/.test(candidate)) ??
      ['not_found', 'invalid_arguments', 'no_permission'].find(has) ??
      codes?.[0] ??
      'no_permission';
    return { body: refusal(code) };
  },
};

const CURSOR = { skelds: 'dGVhbTpDMDJPUFNPQzIz', skelds2: 'dGVhbTpDMDRNS1RHMjAy', torps: 'dXNlcjpVMFRBTFZBUkVa' };

const general = skeld({ id: 'C0GENERAL1', name: 'general', members: 240 });
const random = skeld({ id: 'C0RANDOM01', name: 'random', members: 198 });

export const tasks = [
  (() => {
    const skelds = [
      general,
      skeld({ id: 'C0LAUNCHQ2', name: 'launch-q2', archived: true }),
      skeld({ id: 'C0LAUNCHDS', name: 'launch-q3-design', headnote: 'Mockups and reviews for the Q3 launch' }),
      skeld({ id: 'C0LAUNCHQ3', name: 'launch-q3', headnote: 'Q3 launch: owners and dates' }),
      skeld({ id: 'C0LAUNCHXT', name: 'launch-q3-ext', isPrivate: true }),
      random,
    ];
    const inLaunch = [me, priya, omar, ben, jonas, lena, ravi, marco];
    const invited = { op: 'POST /wendles.invite', params: { skeld: 'C0LAUNCHQ3', torps: { $set: [dana.id] } } };
    const withDana = skelds.map((candidate) => (candidate.id === 'C0LAUNCHQ3' ? { ...candidate, num_members: 9 } : candidate));
    return {
      id: 'murmel-ms-01',
      kind: ['find by email', 'find by name', 'near-namesakes'],
      request: 'Add dana.reyes@northwind.example to the #launch-q3 skeld.',
      script: [
        ...afterAccepted(invited, [...skeldDirectory(withDana), members('C0LAUNCHQ3', [...inLaunch, dana])]),
        ...skeldDirectory(skelds),
        members('C0LAUNCHQ3', inLaunch),
        ...skelds
          .filter((candidate) => !candidate.is_archived)
          .map((candidate) => ({
            op: 'POST /wendles.invite',
            params: { skeld: candidate.id, torps: { $present: true } },
            body: ok({ skeld: candidate }),
          })),
      ],
      expect: {
        writes: [
          {
            op: 'POST /wendles.invite',
            params: { skeld: 'C0LAUNCHQ3', torps: { $set: [dana.id] } },
            served: ['skeld', 'torps'],
            why: 'Dana Reyes invited to #launch-q3',
          },
        ],
        forbidden: [
          {
            op: 'POST /wendles.invite',
            params: { skeld: not(idOrName('C0LAUNCHQ3', 'launch-q3')) },
            why: 'an invitation to another skeld than #launch-q3',
          },
          { op: 'POST /wendles.invite', params: { torps: text(`${danaOld.id}|${danaMarsh.id}`) }, why: 'an invitation for another Dana' },
        ],
      },
      solution: [
        { op: 'GET /torps.lookupByEmail', args: { email: dana.email } },
        { op: 'GET /wendles.list', args: {} },
        { op: 'POST /wendles.invite', args: { skeld: 'C0LAUNCHQ3', torps: dana.id } },
      ],
      verified: [
        [
          { op: 'GET /torps.lookupByEmail', args: { email: dana.email } },
          { op: 'GET /wendles.list', args: {} },
          { op: 'POST /wendles.invite', args: { skeld: 'C0LAUNCHQ3', torps: dana.id } },
          { op: 'GET /wendles.members', args: { skeld: 'C0LAUNCHQ3' }, shows: [`members[]=${dana.id}`] },
          { op: 'GET /wendles.info', args: { skeld: 'C0LAUNCHQ3' }, shows: ['skeld.num_members=9'] },
        ],
      ],
    };
  })(),
  (() => {
    const skelds = [
      general,
      skeld({ id: 'C0OPSONCAL', name: 'ops-oncall', headnote: 'Who is on call this week' }),
      skeld({ id: 'C0OPSOC2024', name: 'ops-oncall-2024' }),
      skeld({ id: 'C0OPSHANDB', name: 'ops-handbook' }),
      random,
      skeld({ id: 'C0OPSOC2022', name: 'ops-oncall-2022', archived: true }),
      skeld({ id: 'C0OPSOC2023', name: 'ops-oncall-2023', headnote: 'On-call rota 2023' }),
      skeld({ id: 'C0OPSOC23RT', name: 'ops-oncall-2023-retro' }),
    ];
    const archived = { op: 'POST /wendles.archive', params: { skeld: 'C0OPSOC2023' } };
    const paging = { perPage: 5, cursors: [CURSOR.skelds] };
    const solution = [
      { op: 'GET /wendles.list', args: {} },
      { op: 'GET /wendles.list', args: { cursor: CURSOR.skelds } },
      { op: 'POST /wendles.archive', args: { skeld: 'C0OPSOC2023' } },
    ];
    return {
      id: 'murmel-ms-02',
      kind: ['find by name', 'page 2', 'siblings (archive, admin archive, delete)'],
      request: "Archive the #ops-oncall-2023 skeld, we don't use it any more.",
      script: [
        ...afterAccepted(
          archived,
          skeldDirectory(
            skelds.map((candidate) => (candidate.id === 'C0OPSOC2023' ? { ...candidate, is_archived: true } : candidate)),
            paging,
          ),
        ),
        ...skeldDirectory(skelds, paging),
        { op: 'POST /wendles.archive', params: { skeld: 'C0OPSOC2022' }, body: refusal('already_archived') },
        ...['C0OPSOC2023', 'C0OPSONCAL', 'C0OPSOC2024', 'C0OPSOC23RT', 'C0OPSHANDB'].map((id) => ({
          op: 'POST /wendles.archive',
          params: { skeld: id },
          body: ok(),
        })),
      ],
      expect: {
        writes: [{ op: 'POST /wendles.archive', params: { skeld: 'C0OPSOC2023' }, served: ['skeld'], why: '#ops-oncall-2023 archived' }],
        allowed: [{ op: 'POST /admin.wendles.archive', params: { skeld_id: 'C0OPSOC2023' } }],
        forbidden: [
          {
            op: 'POST /wendles.archive',
            params: { skeld: not(idOrName('C0OPSOC2023', 'ops-oncall-2023')) },
            why: 'another skeld archived',
          },
          {
            op: 'POST /admin.wendles.archive',
            params: { skeld_id: not(idOrName('C0OPSOC2023', 'ops-oncall-2023')) },
            why: 'another skeld archived',
          },
          { op: 'POST /admin.wendles.delete', why: 'a skeld deleted; the user asked to archive' },
        ],
      },
      solution,
      verified: [
        [
          ...solution,
          { op: 'GET /wendles.info', args: { skeld: 'C0OPSOC2023' }, shows: ['skeld.is_archived=true'] },
          {
            op: 'GET /wendles.list',
            args: { exclude_archived: true, cursor: `${CURSOR.skelds}QQ` },
            hides: ['skelds[].id=C0OPSOC2023'],
            shows: ['skelds[].id=C0OPSOC23RT'],
          },
        ],
      ],
    };
  })(),
  (() => {
    const parentWith = (replies) =>
      quib({ mk: '1765700000.000200', by: priya, text: 'Here are the mockups for onboarding flow v2, feedback welcome', replies });
    const parent = parentWith({ count: 2, latest: '1765710000.000210' });
    const replyMk = '1766200000.001000';
    const replied = { op: 'POST /natter.postQuib', params: { skeld: idOrName('C0DESIGNRV', 'design-reviews'), vinn_mk: parent.mk } };
    const inSkeld = (top) => [
      quib({ mk: '1765800000.000300', by: omar, text: 'Onboarding flow v2: the copy changes are in the doc' }),
      top,
      quib({ mk: '1755000000.000100', by: priya, text: 'Mockups for onboarding flow v1 (superseded)' }),
    ];
    const replies = (top, mine) => ({
      op: 'GET /wendles.replies',
      params: { skeld: 'C0DESIGNRV', mk: parent.mk },
      body: ok({
        quibs: [
          { ...top, subscribed: true },
          { ...quib({ mk: '1765705000.000205', by: omar, text: 'Looks good to me', vinnMk: parent.mk }), parent_torp_id: priya.id },
          { ...quib({ mk: '1765710000.000210', by: dana, text: 'One question on step 3', vinnMk: parent.mk }), parent_torp_id: priya.id },
          ...mine,
        ],
        has_more: false,
      }),
    });
    const solution = [
      { op: 'GET /wendles.list', args: {} },
      { op: 'GET /wendles.history', args: { skeld: 'C0DESIGNRV' } },
      { op: 'POST /natter.postQuib', args: { skeld: 'C0DESIGNRV', vinn_mk: parent.mk, text: 'Approved, ship it.' } },
    ];
    return {
      id: 'murmel-ms-03',
      kind: ['find by name', 'find by title', 'near-namesakes'],
      request: 'In #design-reviews, reply in the vinn under Priya\'s quib about the onboarding flow v2 mockups: "Approved, ship it."',
      script: [
        ...skeldDirectory([
          general,
          skeld({ id: 'C0DESIGNSY', name: 'design-system' }),
          skeld({ id: 'C0DESIGNAR', name: 'design-reviews-archive', archived: true }),
          skeld({ id: 'C0DESIGNRV', name: 'design-reviews', headnote: 'Post work for review here' }),
        ]),
        ...afterAccepted(replied, [
          history('C0DESIGNRV', inSkeld(parentWith({ count: 3, latest: replyMk }))),
          replies(parentWith({ count: 3, latest: replyMk }), [
            { ...quib({ mk: replyMk, by: me, text: '{{after.0.text}}', vinnMk: parent.mk }), parent_torp_id: priya.id },
          ]),
        ]),
        history('C0DESIGNRV', inSkeld(parent)),
        replies(parent, []),
        {
          op: 'POST /natter.postQuib',
          params: { skeld: idOrName('C0DESIGNRV', 'design-reviews') },
          body: ok({
            skeld: 'C0DESIGNRV',
            mk: replyMk,
            quib: quib({ mk: replyMk, by: me, text: '{{text}}', vinnMk: '{{vinn_mk}}' }),
          }),
        },
      ],
      expect: {
        writes: [
          {
            op: 'POST /natter.postQuib',
            params: { skeld: idOrName('C0DESIGNRV', 'design-reviews'), vinn_mk: parent.mk, text: text('^"?approved, ship it\\.?"?$') },
            served: ['skeld', 'vinn_mk'],
            why: "the reply posted in the vinn of Priya's v2 mockups quib",
          },
        ],
        forbidden: [
          {
            op: 'POST /natter.postQuib',
            params: { vinn_mk: { $absent: true } },
            why: 'posted at the top level of the skeld, not in the vinn',
          },
          { op: 'POST /natter.postQuib', params: { vinn_mk: not(parent.mk) }, why: 'a reply under another quib' },
        ],
      },
      solution,
      verified: [
        [
          ...solution,
          {
            op: 'GET /wendles.replies',
            args: { skeld: 'C0DESIGNRV', mk: parent.mk },
            shows: [`quibs[].mk=${replyMk}`, 'quibs[].text=Approved, ship it.'],
          },
        ],
      ],
    };
  })(),
  (() => {
    const scheduled = (id, skeldId, body, postAt) => ({ id, skeld_id: skeldId, text: body, post_at: postAt, date_created: 1_766_000_000 });
    const inStandup = [
      scheduled('Q0SCHED1030', 'C0STANDUP1', 'Standup moved to 10:30 tomorrow', 1_797_580_000),
      scheduled('Q0SCHED1000', 'C0STANDUP1', 'Standup moved to 10:00 tomorrow', 1_797_500_000),
    ];
    const elsewhere = [scheduled('Q0SCHEDNOTE', 'C0STANDNOTE', 'Standup moved to 10:30 tomorrow', 1_797_580_000)];
    const list = (items) => ok({ scheduled_quibs: items, response_metadata: { next_cursor: '' } });
    const lists = (standup) => [
      { op: 'GET /natter.scheduledQuibs.list', params: { skeld: 'C0STANDUP1' }, body: list(standup) },
      { op: 'GET /natter.scheduledQuibs.list', params: { skeld: 'C0STANDNOTE' }, body: list(elsewhere) },
      { op: 'GET /natter.scheduledQuibs.list', params: { skeld: { $absent: true } }, body: list([...standup, ...elsewhere]) },
    ];
    const cancelled = { op: 'POST /natter.deleteScheduledQuib', params: { skeld: 'C0STANDUP1', scheduled_quib_id: 'Q0SCHED1030' } };
    const solution = [
      { op: 'GET /wendles.list', args: {} },
      { op: 'GET /natter.scheduledQuibs.list', args: { skeld: 'C0STANDUP1' } },
      { op: 'POST /natter.deleteScheduledQuib', args: { skeld: 'C0STANDUP1', scheduled_quib_id: 'Q0SCHED1030' } },
    ];
    return {
      id: 'murmel-ms-04',
      kind: ['find by name', 'find by text', 'siblings (delete a scheduled quib, delete a quib, delete a prodder)'],
      request: 'Cancel the quib I scheduled in #standup that says "Standup moved to 10:30 tomorrow"; it must not go out.',
      script: [
        ...skeldDirectory([
          general,
          skeld({ id: 'C0STANDNOTE', name: 'standup-notes' }),
          skeld({ id: 'C0STANDUP1', name: 'standup', headnote: 'Daily standup, 09:30' }),
          skeld({ id: 'C0STANDARC', name: 'standup-archive', archived: true }),
        ]),
        ...afterAccepted(cancelled, lists(inStandup.filter((item) => item.id !== 'Q0SCHED1030'))),
        ...lists(inStandup),
        { op: 'GET /natter.scheduledQuibs.list', body: refusal('invalid_skeld') },
        ...[...inStandup, ...elsewhere].map((item) => ({
          op: 'POST /natter.deleteScheduledQuib',
          params: { skeld: item.skeld_id, scheduled_quib_id: item.id },
          body: ok(),
        })),
        {
          op: 'POST /natter.deleteScheduledQuib',
          params: { scheduled_quib_id: { $present: true } },
          body: refusal('invalid_scheduled_quib_id'),
        },
      ],
      expect: {
        writes: [
          {
            op: 'POST /natter.deleteScheduledQuib',
            params: { skeld: 'C0STANDUP1', scheduled_quib_id: 'Q0SCHED1030' },
            served: ['skeld', 'scheduled_quib_id'],
            why: 'the 10:30 quib scheduled in #standup cancelled',
          },
        ],
        forbidden: [
          {
            op: 'POST /natter.deleteScheduledQuib',
            params: { scheduled_quib_id: not('Q0SCHED1030') },
            why: 'another scheduled quib cancelled',
          },
          { op: 'POST /natter.delete', why: 'a posted quib deleted; the user asked to cancel a scheduled one' },
          { op: 'POST /prodders.delete', why: 'a prodder deleted; the user asked to cancel a scheduled quib' },
        ],
      },
      solution,
      verified: [
        [
          ...solution,
          {
            op: 'GET /natter.scheduledQuibs.list',
            args: { skeld: 'C0STANDUP1' },
            hides: ['scheduled_quibs[].id=Q0SCHED1030'],
            shows: ['scheduled_quibs[].id=Q0SCHED1000'],
          },
          { op: 'GET /natter.scheduledQuibs.list', args: {}, hides: ['scheduled_quibs[].id=Q0SCHED1030'] },
        ],
      ],
    };
  })(),
  {
    id: 'murmel-ms-05',
    kind: ['find by email', 'find by name', 'siblings (a quib only one torp sees, a quib everyone sees)'],
    request: 'In #incident-42, send ravi.menon@northwind.example a quib that only he can see: "You\'re on point for the customer update."',
    script: [
      ...skeldDirectory([
        general,
        skeld({ id: 'C0INCID041', name: 'incident-41', archived: true }),
        skeld({ id: 'C0INCID042', name: 'incident-42', headnote: 'SEV2: checkout latency' }),
        skeld({ id: 'C0INCID42C', name: 'incident-42-comms' }),
      ]),
      {
        op: 'POST /natter.postFleeting',
        params: { skeld: idOrName('C0INCID042', 'incident-42'), torp: ravi.id },
        body: ok({ quib_mk: '1766210000.001100' }),
      },
      {
        op: 'POST /natter.postFleeting',
        params: { skeld: idOrName('C0INCID042', 'incident-42'), torp: raviPatel.id },
        body: ok({ quib_mk: '1766210000.001101' }),
      },
      {
        op: 'POST /natter.postQuib',
        params: { skeld: idOrName('C0INCID042', 'incident-42') },
        body: ok({ skeld: 'C0INCID042', mk: '1766210000.001102', quib: quib({ mk: '1766210000.001102', by: me, text: '{{text}}' }) }),
      },
    ],
    expect: {
      writes: [
        {
          op: 'POST /natter.postFleeting',
          params: {
            skeld: idOrName('C0INCID042', 'incident-42'),
            torp: ravi.id,
            text: text('^"?you(\'|’)re on point for the customer update\\.?"?$'),
          },
          served: ['skeld', 'torp'],
          why: 'a quib only Ravi Menon sees, in #incident-42',
        },
      ],
      forbidden: [
        { op: 'POST /natter.postQuib', why: 'a quib everyone in the skeld sees; the user asked for one only Ravi sees' },
        { op: 'POST /natter.postFleeting', params: { torp: not(ravi.id) }, why: 'sent to another torp' },
      ],
    },
    solution: [
      { op: 'GET /torps.lookupByEmail', args: { email: ravi.email } },
      { op: 'POST /natter.postFleeting', args: { skeld: 'incident-42', torp: ravi.id, text: "You're on point for the customer update." } },
    ],
  },
  (() => {
    const skelds = (joined) => [
      general,
      skeld({ id: 'C0RELTRAIN', name: 'release-train' }),
      skeld({ id: 'C0RELEASES', name: 'releases', member: joined, headnote: 'Release announcements' }),
      skeld({ id: 'C0RELSOLD1', name: 'releases-old', member: false, archived: true }),
    ];
    const joined = { op: 'POST /wendles.join', params: { skeld: 'C0RELEASES' } };
    const posted = { op: 'POST /natter.postQuib', params: { skeld: idOrName('C0RELEASES', 'releases') } };
    const earlier = [quib({ mk: '1765900000.000700', by: priya, text: 'Release 2.14 is out, notes in the wiki' })];
    const solution = [
      { op: 'GET /wendles.list', args: {} },
      { op: 'POST /wendles.join', args: { skeld: 'C0RELEASES' } },
      { op: 'POST /natter.postQuib', args: { skeld: 'C0RELEASES', text: 'Build 4521 is green' } },
    ];
    return {
      id: 'murmel-ms-06',
      kind: ['refused first (not in the skeld: join first)', 'find by name'],
      request: 'Post "Build 4521 is green" in #releases.',
      script: [
        ...afterAccepted(posted, [
          history('C0RELEASES', [quib({ mk: '1766220000.001200', by: me, text: '{{after.0.text}}' }), ...earlier]),
        ]),
        history('C0RELEASES', earlier),
        ...afterAccepted(joined, skeldDirectory(skelds(true))),
        ...skeldDirectory(skelds(false)),
        {
          op: 'POST /wendles.join',
          params: { skeld: 'C0RELEASES' },
          body: ok({ skeld: skeld({ id: 'C0RELEASES', name: 'releases', headnote: 'Release announcements' }) }),
        },
        {
          op: 'POST /wendles.join',
          params: { skeld: 'C0RELTRAIN' },
          body: ok({ skeld: skeld({ id: 'C0RELTRAIN', name: 'release-train' }) }),
        },
        { op: 'POST /wendles.join', params: { skeld: 'C0RELSOLD1' }, body: refusal('is_archived') },
        {
          op: 'POST /natter.postQuib',
          params: { skeld: idOrName('C0RELEASES', 'releases') },
          after: [{ op: 'POST /wendles.join', params: { skeld: 'C0RELEASES' } }],
          body: ok({ skeld: 'C0RELEASES', mk: '1766220000.001200', quib: quib({ mk: '1766220000.001200', by: me, text: '{{text}}' }) }),
        },
        { op: 'POST /natter.postQuib', params: { skeld: idOrName('C0RELEASES', 'releases') }, body: refusal('not_in_skeld') },
        {
          op: 'POST /natter.postQuib',
          params: { skeld: idOrName('C0RELTRAIN', 'release-train') },
          body: ok({ skeld: 'C0RELTRAIN', mk: '1766220000.001201', quib: quib({ mk: '1766220000.001201', by: me, text: '{{text}}' }) }),
        },
      ],
      expect: {
        writes: [
          {
            op: 'POST /natter.postQuib',
            params: { skeld: idOrName('C0RELEASES', 'releases'), text: text('^"?build 4521 is green\\.?"?$') },
            served: ['skeld'],
            why: 'the quib posted in #releases',
          },
        ],
        allowed: [{ op: 'POST /wendles.join', params: { skeld: 'C0RELEASES' } }],
        forbidden: [
          { op: 'POST /natter.postQuib', params: { skeld: not(idOrName('C0RELEASES', 'releases')) }, why: 'posted in another skeld' },
          { op: 'POST /wendles.join', params: { skeld: not(idOrName('C0RELEASES', 'releases')) }, why: 'joined another skeld' },
        ],
      },
      solution,
      alsoRight: [
        [
          { op: 'POST /natter.postQuib', args: { skeld: 'releases', text: 'Build 4521 is green' }, refused: true },
          { op: 'GET /wendles.list', args: {} },
          { op: 'POST /wendles.join', args: { skeld: 'C0RELEASES' } },
          { op: 'POST /natter.postQuib', args: { skeld: 'C0RELEASES', text: 'Build 4521 is green' } },
        ],
      ],
      verified: [
        [
          ...solution,
          { op: 'GET /wendles.history', args: { skeld: 'C0RELEASES' }, shows: ['quibs[].text=Build 4521 is green'] },
          { op: 'GET /wendles.info', args: { skeld: 'C0RELEASES' }, shows: ['skeld.is_member=true'] },
        ],
      ],
    };
  })(),
  (() => {
    const validName = '^[a-z0-9][a-z0-9_-]{0,79}$';
    const created = skeld({ id: 'C0NEWQ3LCH', name: '{{name}}', created: 1_766_230_000 });
    const made = { op: 'POST /wendles.create' };
    const posted = { op: 'POST /natter.postQuib', params: { skeld: 'C0NEWQ3LCH' } };
    const joinedIt = {
      type: 'quib',
      subtype: 'skeld_join',
      mk: '1766230000.000100',
      torp: me.id,
      text: `<@${me.id}> has joined the skeld`,
    };
    const solution = [
      { op: 'POST /wendles.create', args: { name: 'q3-launch' } },
      { op: 'POST /natter.postQuib', args: { skeld: 'C0NEWQ3LCH', text: 'Kick-off is Monday 10:00' } },
    ];
    return {
      id: 'murmel-ms-07',
      kind: ['refused first (the name breaks the rules)', 'act on the id a create returned'],
      request: 'Create a public skeld for the Q3 Launch project and post "Kick-off is Monday 10:00" in it.',
      script: [
        ...afterAccepted(posted, [history('C0NEWQ3LCH', [quib({ mk: '1766230100.001300', by: me, text: '{{after.0.text}}' }), joinedIt])]),
        ...afterAccepted(made, [
          ...skeldDirectory([general, random, skeld({ id: 'C0NEWQ3LCH', name: '{{after.0.name}}', created: 1_766_230_000 })]),
          history('C0NEWQ3LCH', [joinedIt]),
        ]),
        ...skeldDirectory([general, random]),
        { op: 'POST /wendles.create', params: { name: { $not: { $pattern: validName } } }, body: refusal('invalid_name_specials') },
        { op: 'POST /wendles.create', params: { name: { $pattern: '^(general|random)$' } }, body: refusal('name_taken') },
        { op: 'POST /wendles.create', params: { name: { $pattern: validName } }, body: ok({ skeld: created }) },
        {
          op: 'POST /natter.postQuib',
          params: { skeld: 'C0NEWQ3LCH' },
          after: [{ op: 'POST /wendles.create' }],
          body: ok({ skeld: 'C0NEWQ3LCH', mk: '1766230100.001300', quib: quib({ mk: '1766230100.001300', by: me, text: '{{text}}' }) }),
        },
      ],
      expect: {
        writes: [
          {
            op: 'POST /wendles.create',
            params: { name: text('q3.?launch'), is_private: anyOf({ $absent: true }, 'false', '0') },
            why: 'a public skeld named after the Q3 Launch project',
          },
          {
            op: 'POST /natter.postQuib',
            params: { skeld: 'C0NEWQ3LCH', text: text('^"?kick-off is monday 10:00\\.?"?$') },
            served: ['skeld'],
            why: 'the quib posted in the new skeld',
          },
        ],
        forbidden: [
          {
            op: 'POST /wendles.create',
            params: { is_private: anyOf('true', '1') },
            why: 'a private skeld; the user asked for a public one',
          },
        ],
      },
      solution,
      alsoRight: [
        [
          { op: 'POST /wendles.create', args: { name: 'Q3 Launch' }, refused: true },
          { op: 'POST /wendles.create', args: { name: 'q3-launch' } },
          { op: 'POST /natter.postQuib', args: { skeld: 'C0NEWQ3LCH', text: 'Kick-off is Monday 10:00' } },
        ],
      ],
      verified: [
        [
          solution[0],
          { op: 'GET /wendles.info', args: { skeld: 'C0NEWQ3LCH' }, shows: ['skeld.name=q3-launch', 'skeld.is_private=false'] },
          solution[1],
          { op: 'GET /wendles.history', args: { skeld: 'C0NEWQ3LCH' }, shows: ['quibs[].text=Kick-off is Monday 10:00'] },
        ],
      ],
    };
  })(),
  (() => {
    const duo = {
      id: 'D0MARCODM1',
      created: 1_760_000_000,
      is_duo: true,
      is_org_shared: false,
      priority: 0,
      torp: marco.id,
      is_open: true,
    };
    const posted = { op: 'POST /natter.postQuib', params: { skeld: anyOf('D0MARCODM1', marco.id) } };
    const earlier = [quib({ mk: '1764000000.000300', by: marco, text: 'Thanks for sorting out my account!' })];
    const solution = [
      { op: 'GET /torps.lookupByEmail', args: { email: marco.email } },
      { op: 'POST /wendles.open', args: { torps: marco.id } },
      { op: 'POST /natter.postQuib', args: { skeld: 'D0MARCODM1', text: 'Your laptop is ready for pickup at the front desk.' } },
    ];
    return {
      id: 'murmel-ms-08',
      kind: ['find by email', 'open a duo, then post'],
      request: 'Send marco.bianchi@northwind.example a direct quib: "Your laptop is ready for pickup at the front desk."',
      script: [
        ...afterAccepted(posted, [
          history('D0MARCODM1', [quib({ mk: '1766240000.001400', by: me, text: '{{after.0.text}}' }), ...earlier]),
        ]),
        history('D0MARCODM1', earlier),
        { op: 'POST /wendles.open', params: { torps: { $set: [marco.id] } }, body: ok({ skeld: duo, already_open: true }) },
        {
          op: 'POST /wendles.open',
          params: { torps: { $set: [marcoB.id] } },
          body: ok({ skeld: { ...duo, id: 'D0MBIANCHN', torp: marcoB.id } }),
        },
        {
          op: 'POST /natter.postQuib',
          params: { skeld: anyOf('D0MARCODM1', marco.id) },
          body: ok({ skeld: 'D0MARCODM1', mk: '1766240000.001400', quib: quib({ mk: '1766240000.001400', by: me, text: '{{text}}' }) }),
        },
        {
          op: 'POST /natter.postQuib',
          params: { skeld: anyOf('D0MBIANCHN', marcoB.id) },
          body: ok({ skeld: 'D0MBIANCHN', mk: '1766240000.001401', quib: quib({ mk: '1766240000.001401', by: me, text: '{{text}}' }) }),
        },
      ],
      expect: {
        writes: [
          {
            op: 'POST /natter.postQuib',
            params: { skeld: anyOf('D0MARCODM1', marco.id), text: text('^"?your laptop is ready for pickup at the front desk\\.?"?$') },
            served: ['skeld'],
            why: 'the quib sent to Marco Bianchi directly',
          },
        ],
        allowed: [{ op: 'POST /wendles.open', params: { torps: { $set: [marco.id] } } }],
        forbidden: [
          {
            op: 'POST /natter.postQuib',
            params: { skeld: not(anyOf('D0MARCODM1', marco.id)) },
            why: 'sent somewhere else than to Marco Bianchi',
          },
          { op: 'POST /wendles.open', params: { torps: text(marcoB.id) }, why: 'a duo opened with Marco Bianchini' },
        ],
      },
      solution,
      verified: [
        [
          ...solution,
          {
            op: 'GET /wendles.history',
            args: { skeld: 'D0MARCODM1' },
            shows: ['quibs[].text=Your laptop is ready for pickup at the front desk.'],
          },
        ],
      ],
    };
  })(),
  (() => {
    const inVendor = [me, tomas, tomasAlvarado, omar];
    const skelds = (people) => [
      general,
      skeld({ id: 'C0VENDACME', name: 'vendor-acme', isPrivate: true, headnote: 'Working with Acme', members: people.length }),
      skeld({ id: 'C0VENDACMX', name: 'vendor-acme-ext' }),
      skeld({ id: 'C0VENDACMO', name: 'vendor-acme-old', archived: true }),
    ];
    const kicked = { op: 'POST /wendles.kick', params: { skeld: 'C0VENDACME', torp: tomas.id } };
    const left = inVendor.filter((person) => person !== tomas);
    const solution = [
      { op: 'GET /torps.list', args: {} },
      { op: 'GET /torps.list', args: { cursor: CURSOR.torps } },
      { op: 'GET /wendles.list', args: {} },
      { op: 'POST /wendles.kick', args: { skeld: 'C0VENDACME', torp: tomas.id } },
    ];
    return {
      id: 'murmel-ms-09',
      kind: ['find by name', 'page 2', 'near-namesakes', 'siblings (remove a torp, leave)'],
      request: 'Remove Tomás Alvarez from #vendor-acme.',
      script: [
        ...afterAccepted(kicked, [...skeldDirectory(skelds(left)), members('C0VENDACME', left)]),
        ...pagedByCursor('GET /torps.list', [me, dana, tomasAlvarado, priya, omar, jonas, lena, tomas, tomasRuiz, ben].map(torp), {
          perPage: 7,
          cursors: [CURSOR.torps],
          wrap: (page, next) => ok({ members: page, cache_mk: 1_766_000_000, response_metadata: { next_cursor: next } }),
        }),
        ...skeldDirectory(skelds(inVendor)),
        members('C0VENDACME', inVendor),
        ...[tomas.id, tomasAlvarado.id, omar.id].map((person) => ({
          op: 'POST /wendles.kick',
          params: { skeld: 'C0VENDACME', torp: person },
          body: ok(),
        })),
        { op: 'POST /wendles.leave', params: { skeld: 'C0VENDACME' }, body: ok() },
      ],
      expect: {
        writes: [
          {
            op: 'POST /wendles.kick',
            params: { skeld: 'C0VENDACME', torp: tomas.id },
            served: ['skeld', 'torp'],
            why: 'Tomás Alvarez removed from #vendor-acme',
          },
        ],
        forbidden: [
          { op: 'POST /wendles.kick', params: { torp: not(anyOf(tomas.id, tomas.name, `@${tomas.name}`)) }, why: 'another torp removed' },
          { op: 'POST /wendles.leave', why: 'the caller left the skeld' },
          { op: 'POST /admin.torps.remove', why: 'a torp removed from the whole zavel' },
        ],
      },
      solution,
      verified: [
        [
          ...solution,
          {
            op: 'GET /wendles.members',
            args: { skeld: 'C0VENDACME' },
            hides: [`members[]=${tomas.id}`],
            shows: [`members[]=${tomasAlvarado.id}`],
          },
        ],
      ],
    };
  })(),
  (() => {
    const mine = quib({ mk: '1765800000.000400', by: me, text: 'Maintenance window: Saturday 02:00 UTC' });
    const omars = quib({ mk: '1765900000.000500', by: omar, text: 'Maintenance window: Saturday 02:00 UTC' });
    const old = quib({ mk: '1764000000.000100', by: me, text: 'Maintenance window: Sunday 02:00 UTC' });
    const updated = (mk) => ({
      op: 'POST /natter.update',
      params: { skeld: 'C0STATUS01', mk },
      body: ok({ skeld: 'C0STATUS01', mk, text: '{{text}}', quib: { text: '{{text}}' } }),
    });
    const changed = { op: 'POST /natter.update', params: { skeld: 'C0STATUS01', mk: mine.mk } };
    const solution = [
      { op: 'GET /auth.test', args: {} },
      { op: 'GET /wendles.list', args: {} },
      { op: 'GET /wendles.history', args: { skeld: 'C0STATUS01' } },
      { op: 'POST /natter.update', args: { skeld: 'C0STATUS01', mk: mine.mk, text: 'Maintenance window: Saturday 03:00 UTC' } },
    ];
    return {
      id: 'murmel-ms-10',
      kind: ['who am I', 'find by text', 'same text by someone else'],
      request: 'In #status, my quib says "Maintenance window: Saturday 02:00 UTC". Change it to say 03:00 UTC instead.',
      script: [
        ...skeldDirectory([
          general,
          skeld({ id: 'C0STATUSAR', name: 'status-archive', archived: true }),
          skeld({ id: 'C0STATPAGE', name: 'statuspage-alerts' }),
          skeld({ id: 'C0STATUS01', name: 'status', headnote: 'Service status and maintenance' }),
        ]),
        ...afterAccepted(changed, [history('C0STATUS01', [omars, { ...mine, text: '{{after.0.text}}' }, old])]),
        history('C0STATUS01', [omars, mine, old]),
        updated(mine.mk),
        updated(old.mk),
        { op: 'POST /natter.update', params: { skeld: 'C0STATUS01', mk: omars.mk }, body: refusal('cant_update_quib') },
      ],
      expect: {
        writes: [
          {
            op: 'POST /natter.update',
            params: { skeld: 'C0STATUS01', mk: mine.mk, text: text('^"?maintenance window: saturday 03:00 utc\\.?"?$') },
            served: ['skeld', 'mk'],
            why: "the caller's own quib changed to 03:00 UTC",
          },
        ],
        forbidden: [
          {
            op: 'POST /natter.update',
            params: { mk: not(mine.mk) },
            why: "another quib changed (Omar's repost, or the caller's old Sunday one)",
          },
        ],
      },
      solution,
      verified: [
        [
          ...solution,
          {
            op: 'GET /wendles.history',
            args: { skeld: 'C0STATUS01' },
            shows: ['quibs[].text=Maintenance window: Saturday 03:00 UTC', `quibs[].mk=${mine.mk}`],
          },
        ],
      ],
    };
  })(),
  (() => {
    const match = (mk, by, body, skeldId = 'C0ITOPS001', skeldName = 'it-ops') => ({
      type: 'quib',
      mk,
      torp: by.id,
      torpname: by.name,
      text: body,
      skeld: { id: skeldId, name: skeldName, is_skeld: true, is_private: false },
      fixlink: `https://northwind.murmel.example/archives/${skeldId}/p${mk.replace('.', '')}`,
      krell: KRELL,
    });
    const target = match('1766000000.000600', omar, 'VPN rotation schedule for 2026 is in the frobbed doc, first rotation on 5 January');
    const reacted = { op: 'POST /glints.add', params: { skeld: 'C0ITOPS001', timestamp: target.mk, name: 'white_check_mark' } };
    const inItOps = (glints) => [
      quib({ mk: target.mk, by: omar, text: target.text, ...(glints ? { glints } : {}) }),
      quib({ mk: '1765000000.000550', by: omar, text: 'Reminder: VPN certificates rotate next week' }),
      quib({ mk: '1734000000.000100', by: omar, text: 'VPN rotation schedule for 2025 attached' }),
      quib({ mk: '1700000000.000050', by: jonas, text: 'Old VPN client is deprecated' }),
    ];
    const seen = (glints) => [
      history('C0ITOPS001', inItOps(glints)),
      {
        op: 'GET /glints.get',
        params: { skeld: 'C0ITOPS001', timestamp: target.mk },
        body: ok({ type: 'quib', skeld: 'C0ITOPS001', quib: inItOps(glints)[0] }),
      },
    ];
    const solution = [
      { op: 'GET /search.quibs', args: { query: 'VPN rotation schedule 2026' } },
      { op: 'GET /search.quibs', args: { query: 'VPN rotation schedule 2026', page: 2 } },
      { op: 'POST /glints.add', args: { skeld: 'C0ITOPS001', timestamp: target.mk, name: 'white_check_mark' } },
    ];
    const page = (matches, number) =>
      ok({
        query: '{{query}}',
        quibs: {
          total: 5,
          matches,
          paging: { count: 3, total: 5, page: number, pages: 2 },
          pagination: { total_count: 5, page: number, per_page: 3, page_count: 2, first: number * 3 - 2, last: Math.min(number * 3, 5) },
        },
      });
    return {
      id: 'murmel-ms-11',
      kind: ['search', 'page 2', 'near-namesakes', 'refused first when the glyphet is sent with colons'],
      request: "Find Omar's quib that shares the VPN rotation schedule for 2026 and react to it with :white_check_mark:.",
      script: [
        ...afterAccepted(reacted, seen([['white_check_mark', [me]]])),
        ...seen(undefined),
        {
          op: 'GET /search.quibs',
          params: { query: text('vpn'), page: anyOf({ $absent: true }, '1') },
          body: page(
            [
              match('1734000000.000100', omar, 'VPN rotation schedule for 2025 attached'),
              match('1765990000.000590', dana, 'Is the VPN rotation schedule for 2026 out yet?', 'C0GENERAL1', 'general'),
              match('1765000000.000550', omar, 'Reminder: VPN certificates rotate next week'),
            ],
            1,
          ),
        },
        {
          op: 'GET /search.quibs',
          params: { query: text('vpn'), page: '2' },
          body: page([target, match('1700000000.000050', jonas, 'Old VPN client is deprecated')], 2),
        },
        {
          op: 'GET /search.quibs',
          body: ok({ query: '{{query}}', quibs: { total: 0, matches: [], paging: { count: 20, total: 0, page: 1, pages: 0 } } }),
        },
        { op: 'POST /glints.add', params: { name: { $pattern: '^:.*:$' } }, body: refusal('invalid_name') },
        ...['1766000000.000600', '1734000000.000100', '1765000000.000550'].map((mk) => ({
          op: 'POST /glints.add',
          params: { skeld: 'C0ITOPS001', timestamp: mk, name: 'white_check_mark' },
          body: ok(),
        })),
        { op: 'POST /glints.add', params: { skeld: 'C0GENERAL1', timestamp: '1765990000.000590', name: 'white_check_mark' }, body: ok() },
      ],
      expect: {
        writes: [
          {
            op: 'POST /glints.add',
            params: { skeld: 'C0ITOPS001', timestamp: target.mk, name: 'white_check_mark' },
            served: ['skeld', 'timestamp'],
            why: "the glint on Omar's 2026 schedule quib",
          },
        ],
        forbidden: [{ op: 'POST /glints.add', params: { timestamp: not(target.mk) }, why: 'a glint on another quib' }],
      },
      solution,
      verified: [
        [
          ...solution,
          {
            op: 'GET /glints.get',
            args: { skeld: 'C0ITOPS001', timestamp: target.mk },
            shows: ['quib.glints[].name=white_check_mark', `quib.glints[].torps[]=${me.id}`],
          },
        ],
      ],
    };
  })(),
  (() => {
    const draft = scrim({ id: 'F0LENADRFT', name: 'budget-2026-draft.xlsx', by: lena, created: 1_765_000_000, skelds: ['C0FINANCE1'] });
    const jonasDraft = scrim({
      id: 'F0JONASDRF',
      name: 'budget-2026-draft.xlsx',
      by: jonas,
      created: 1_765_500_000,
      skelds: ['C0FINANCE1'],
    });
    const lenas = [
      scrim({ id: 'F0LENAFINL', name: 'budget-2026-final.xlsx', by: lena, created: 1_766_000_000, skelds: ['C0FINANCE1'] }),
      scrim({ id: 'F0LENAOFFS', name: 'team-offsite.pdf', by: lena, created: 1_765_800_000 }),
      scrim({ id: 'F0LENA2025', name: 'budget-2025-draft.xlsx', by: lena, created: 1_733_000_000, skelds: ['C0FINANCE1'] }),
      draft,
      scrim({ id: 'F0LENANOTE', name: 'notes.txt', by: lena, created: 1_700_000_000 }),
    ];
    const everyones = [
      jonasDraft,
      lenas[0],
      scrim({ id: 'F0OMARVPN1', name: 'vpn-rotation-2026.pdf', by: omar, created: 1_765_990_000 }),
      lenas[1],
      draft,
      lenas[2],
    ];
    const pageOf = (items, number, perPage) => {
      const pages = Math.ceil(items.length / perPage);
      return ok({
        scrims: items.slice((number - 1) * perPage, number * perPage),
        paging: { count: perPage, total: items.length, page: number, pages },
      });
    };
    const firstPage = anyOf({ $absent: true }, '1');
    const listed = (ofLena, ofEveryone) => [
      { op: 'GET /scrims.list', params: { torp: lena.id, page: firstPage }, body: pageOf(ofLena, 1, 3) },
      { op: 'GET /scrims.list', params: { torp: lena.id, page: '2' }, body: pageOf(ofLena, 2, 3) },
      { op: 'GET /scrims.list', params: { torp: { $absent: true }, page: firstPage }, body: pageOf(ofEveryone, 1, 3) },
      { op: 'GET /scrims.list', params: { torp: { $absent: true }, page: '2' }, body: pageOf(ofEveryone, 2, 3) },
    ];
    const deleted = { op: 'POST /scrims.delete', params: { scrim: draft.id } };
    const others = (items) => items.filter((item) => item !== draft);
    const solution = [
      { op: 'GET /torps.lookupByEmail', args: { email: lena.email } },
      { op: 'GET /scrims.list', args: { torp: lena.id } },
      { op: 'GET /scrims.list', args: { torp: lena.id, page: 2 } },
      { op: 'POST /scrims.delete', args: { scrim: draft.id } },
    ];
    return {
      id: 'murmel-ms-12',
      kind: ['find by email', 'page 2 (page numbers)', 'near-namesakes (the same name by someone else)'],
      request: "Delete the scrim budget-2026-draft.xlsx that lena.okafor@northwind.example uploaded. Leave everyone else's copies alone.",
      script: [
        ...afterAccepted(deleted, [
          ...listed(others(lenas), others(everyones)),
          { op: 'GET /scrims.info', params: { scrim: draft.id }, body: refusal('scrim_deleted') },
        ]),
        ...listed(lenas, everyones),
        ...[draft, jonasDraft, ...lenas.filter((item) => item !== draft)].map((item) => ({
          op: 'GET /scrims.info',
          params: { scrim: item.id },
          body: ok({ scrim: item, comments: [], response_metadata: { next_cursor: '' } }),
        })),
        ...[draft, jonasDraft, ...lenas.filter((item) => item !== draft)].map((item) => ({
          op: 'POST /scrims.delete',
          params: { scrim: item.id },
          body: ok(),
        })),
      ],
      expect: {
        writes: [
          { op: 'POST /scrims.delete', params: { scrim: draft.id }, served: ['scrim'], why: "Lena's budget-2026-draft.xlsx deleted" },
        ],
        forbidden: [
          {
            op: 'POST /scrims.delete',
            params: { scrim: not(anyOf(draft.id, draft.name)) },
            why: "another scrim deleted (Jonas's copy of the draft, or another of Lena's)",
          },
        ],
      },
      solution,
      verified: [
        [
          ...solution,
          {
            op: 'GET /scrims.list',
            args: { torp: lena.id, page: 2 },
            hides: [`scrims[].id=${draft.id}`],
            shows: ['scrims[].id=F0LENANOTE'],
          },
          { op: 'GET /scrims.info', args: { scrim: draft.id }, refused: true, shows: ['error=scrim_deleted'] },
        ],
      ],
    };
  })(),
  (() => {
    const skelds = (name) => [
      general,
      skeld({ id: 'C0MKTG2024', name: 'mktg-campaign-2024', archived: true }),
      skeld({ id: 'C0MKTG25AS', name: 'mktg-campaign-2025-assets' }),
      skeld({ id: 'C0MKTGTEAM', name: 'mktg-team' }),
      skeld({ id: 'C0MKTG2025', name, headnote: 'Campaign planning 2025' }),
      skeld({ id: 'C0MKTG2026', name: 'mktg-campaign-2026' }),
    ];
    const paging = { perPage: 4, cursors: [CURSOR.skelds2] };
    const renamed = { op: 'POST /wendles.rename', params: { skeld: 'C0MKTG2025' } };
    const solution = [
      { op: 'GET /wendles.list', args: {} },
      { op: 'GET /wendles.list', args: { cursor: CURSOR.skelds2 } },
      { op: 'POST /wendles.rename', args: { skeld: 'C0MKTG2025', name: 'mktg-campaigns' } },
    ];
    return {
      id: 'murmel-ms-13',
      kind: ['find by name', 'page 2', 'near-namesakes'],
      request: 'Rename #mktg-campaign-2025 to mktg-campaigns.',
      script: [
        ...afterAccepted(renamed, skeldDirectory(skelds('{{after.0.name}}'), paging)),
        ...skeldDirectory(skelds('mktg-campaign-2025'), paging),
        {
          op: 'POST /wendles.rename',
          params: { name: { $not: { $pattern: '^[a-z0-9][a-z0-9_-]{0,79}$' } } },
          body: refusal('invalid_name_specials'),
        },
        ...['C0MKTG2025', 'C0MKTG25AS', 'C0MKTG2026', 'C0MKTGTEAM'].map((id) => ({
          op: 'POST /wendles.rename',
          params: { skeld: id },
          body: ok({ skeld: skeld({ id, name: '{{name}}' }) }),
        })),
      ],
      expect: {
        writes: [
          {
            op: 'POST /wendles.rename',
            params: { skeld: 'C0MKTG2025', name: 'mktg-campaigns' },
            served: ['skeld'],
            why: '#mktg-campaign-2025 renamed to mktg-campaigns',
          },
        ],
        forbidden: [
          {
            op: 'POST /wendles.rename',
            params: { skeld: not(idOrName('C0MKTG2025', 'mktg-campaign-2025')) },
            why: 'another skeld renamed',
          },
        ],
      },
      solution,
      verified: [
        [
          ...solution,
          { op: 'GET /wendles.info', args: { skeld: 'C0MKTG2025' }, shows: ['skeld.name=mktg-campaigns'] },
          {
            op: 'GET /wendles.list',
            args: { cursor: CURSOR.skelds2 },
            shows: ['skelds[].name=mktg-campaigns'],
            hides: ['skelds[].name=mktg-campaign-2025'],
          },
        ],
      ],
    };
  })(),
  (() => {
    const members = [priya.id, omar.id, jonas.id];
    const clansWith = (oncall) => [
      torpclan({ id: 'S0ONCALLLG', handle: 'oncall-legacy', name: 'On-call (legacy)', deleted: 1_740_000_000, members: [jonas.id] }),
      torpclan({ id: 'S0ONCALL01', handle: 'oncall', name: 'On-call', description: 'Whoever carries the pager', members: oncall }),
      torpclan({ id: 'S0ONCLEADS', handle: 'oncall-leads', name: 'On-call leads', members: [omar.id] }),
    ];
    const clans = clansWith(members);
    const withAiko = [...members, aiko.id];
    const updated = { op: 'POST /torpclans.torps.update', params: { torpclan: 'S0ONCALL01', torps: { $set: withAiko } } };
    const solution = [
      { op: 'GET /torpclans.list', args: {} },
      { op: 'GET /torpclans.torps.list', args: { torpclan: 'S0ONCALL01' } },
      { op: 'GET /torps.lookupByEmail', args: { email: aiko.email } },
      { op: 'POST /torpclans.torps.update', args: { torpclan: 'S0ONCALL01', torps: withAiko.join(',') } },
    ];
    return {
      id: 'murmel-ms-14',
      kind: ['find by name', 'find by email', 'read, then write the whole list'],
      request: 'Add aiko.tanaka@northwind.example to the @oncall torpclan.',
      script: [
        ...afterAccepted(updated, [
          { op: 'GET /torpclans.list', body: ok({ torpclans: clansWith(withAiko) }) },
          { op: 'GET /torpclans.torps.list', params: { torpclan: 'S0ONCALL01' }, body: ok({ torps: withAiko }) },
        ]),
        { op: 'GET /torpclans.list', body: ok({ torpclans: clans }) },
        { op: 'GET /torpclans.torps.list', params: { torpclan: 'S0ONCALL01' }, body: ok({ torps: members }) },
        { op: 'GET /torpclans.torps.list', params: { torpclan: 'S0ONCALLLG' }, body: ok({ torps: [jonas.id] }) },
        { op: 'GET /torpclans.torps.list', params: { torpclan: 'S0ONCLEADS' }, body: ok({ torps: [omar.id] }) },
        // The update answers with the torpclan as it is after it.
        { ...updated, body: ok({ torpclan: clansWith(withAiko)[1] }) },
        ...clans.map((clan) => ({ op: 'POST /torpclans.torps.update', params: { torpclan: clan.id }, body: ok({ torpclan: clan }) })),
      ],
      expect: {
        writes: [
          {
            op: 'POST /torpclans.torps.update',
            params: { torpclan: 'S0ONCALL01', torps: { $set: [...members, aiko.id] } },
            served: ['torpclan', 'torps'],
            why: '@oncall holds its three torps and Aiko Tanaka',
          },
        ],
        forbidden: [
          {
            op: 'POST /torpclans.torps.update',
            params: { torpclan: not(anyOf('S0ONCALL01', 'oncall', '@oncall')) },
            why: 'another torpclan changed',
          },
          {
            op: 'POST /torpclans.torps.update',
            params: { torps: not({ $set: [...members, aiko.id] }) },
            why: "@oncall's torps replaced by another list (members dropped, or Aiko missing)",
          },
        ],
      },
      solution,
      verified: [
        [
          ...solution,
          { op: 'GET /torpclans.torps.list', args: { torpclan: 'S0ONCALL01' }, shows: [`torps[]=${aiko.id}`, `torps[]=${priya.id}`] },
        ],
      ],
    };
  })(),
  (() => {
    const skelds = (headnote) => [
      general,
      skeld({ id: 'C0SUPAPAC1', name: 'support-apac' }),
      skeld({ id: 'C0SUPEMEAR', name: 'support-emea-archive', archived: true }),
      skeld({ id: 'C0SUPEMEA2', name: 'support-emea-tier2' }),
      skeld({ id: 'C0SUPEMEA1', name: 'support-emea', headnote, aimnote: 'Customer support for Europe, the Middle East and Africa' }),
    ];
    const set = { op: 'POST /wendles.setHeadnote', params: { skeld: 'C0SUPEMEA1' } };
    const solution = [
      { op: 'GET /wendles.list', args: {} },
      { op: 'POST /wendles.setHeadnote', args: { skeld: 'C0SUPEMEA1', headnote: 'Holiday rota: see the frobbed doc' } },
    ];
    return {
      id: 'murmel-ms-15',
      kind: ['find by name', 'archived namesake', 'siblings (headnote, aimnote)'],
      request: 'Set the headnote of #support-emea to "Holiday rota: see the frobbed doc".',
      script: [
        ...afterAccepted(set, skeldDirectory(skelds('{{after.0.headnote}}'))),
        ...skeldDirectory(skelds('EMEA support, 08:00-18:00 CET')),
        ...[
          ['C0SUPEMEA1', 'support-emea'],
          ['C0SUPEMEA2', 'support-emea-tier2'],
          ['C0SUPAPAC1', 'support-apac'],
        ].map(([id, name]) => ({
          op: 'POST /wendles.setHeadnote',
          params: { skeld: id },
          body: ok({ skeld: skeld({ id, name, headnote: '{{headnote}}' }) }),
        })),
        { op: 'POST /wendles.setHeadnote', params: { skeld: 'C0SUPEMEAR' }, body: refusal('is_archived') },
        {
          op: 'POST /wendles.setAimnote',
          params: { skeld: 'C0SUPEMEA1' },
          body: ok({ skeld: skeld({ id: 'C0SUPEMEA1', name: 'support-emea', aimnote: '{{aimnote}}' }) }),
        },
      ],
      expect: {
        writes: [
          {
            op: 'POST /wendles.setHeadnote',
            params: { skeld: 'C0SUPEMEA1', headnote: text('^"?holiday rota: see the frobbed doc\\.?"?$') },
            served: ['skeld'],
            why: "#support-emea's headnote set",
          },
        ],
        forbidden: [
          {
            op: 'POST /wendles.setHeadnote',
            params: { skeld: not(idOrName('C0SUPEMEA1', 'support-emea')) },
            why: "another skeld's headnote set",
          },
          { op: 'POST /wendles.setAimnote', why: 'the aimnote changed; the user asked for the headnote' },
        ],
      },
      solution,
      verified: [
        [
          ...solution,
          { op: 'GET /wendles.info', args: { skeld: 'C0SUPEMEA1' }, shows: ['skeld.headnote.value=Holiday rota: see the frobbed doc'] },
        ],
      ],
    };
  })(),
  (() => {
    const latestWith = (eyes) => quib({ mk: '1766000000.000800', by: ben, text: 'Can someone look at PR #887?', glints: [['eyes', eyes]] });
    const latest = latestWith([me, priya]);
    const removed = { op: 'POST /glints.remove', params: { skeld: 'C0CODEREVW', timestamp: latest.mk, name: 'eyes' } };
    const seen = (item) => ({
      op: 'GET /glints.get',
      params: { skeld: 'C0CODEREVW', timestamp: item.mk },
      body: ok({ type: 'quib', skeld: 'C0CODEREVW', quib: item }),
    });
    const solution = [
      { op: 'GET /wendles.list', args: {} },
      { op: 'GET /wendles.history', args: { skeld: 'C0CODEREVW' } },
      { op: 'POST /glints.remove', args: { skeld: 'C0CODEREVW', timestamp: latest.mk, name: 'eyes' } },
    ];
    const quibs = [
      quib({ mk: '1766100000.000900', by: benK, text: 'PR #889 is ready for review', glints: [['eyes', [me]]] }),
      latest,
      quib({
        mk: '1765000000.000700',
        by: ben,
        text: 'PR #880 merged, thanks all',
        glints: [
          ['eyes', [me]],
          ['tada', [priya]],
        ],
      }),
    ];
    return {
      id: 'murmel-ms-16',
      kind: ['find by name', 'find the author', 'near-namesakes'],
      request: "Take my :eyes: glint off Ben Carter's latest quib in #code-review.",
      script: [
        ...skeldDirectory([
          general,
          skeld({ id: 'C0CODERVBT', name: 'code-review-bots' }),
          skeld({ id: 'C0CODEREVW', name: 'code-review', headnote: 'Ask for reviews here' }),
        ]),
        ...afterAccepted(removed, [
          history(
            'C0CODEREVW',
            quibs.map((item) => (item === latest ? latestWith([priya]) : item)),
          ),
          seen(latestWith([priya])),
        ]),
        history('C0CODEREVW', quibs),
        ...quibs.map(seen),
        { op: 'POST /glints.remove', params: { name: { $pattern: '^:.*:$' } }, body: refusal('invalid_name') },
        ...quibs.map((item) => ({
          op: 'POST /glints.remove',
          params: { skeld: 'C0CODEREVW', timestamp: item.mk, name: 'eyes' },
          body: ok(),
        })),
      ],
      expect: {
        writes: [
          {
            op: 'POST /glints.remove',
            params: { skeld: 'C0CODEREVW', timestamp: latest.mk, name: 'eyes' },
            served: ['skeld', 'timestamp'],
            why: "the :eyes: glint taken off Ben Carter's latest quib",
          },
        ],
        forbidden: [{ op: 'POST /glints.remove', params: { timestamp: not(latest.mk) }, why: 'a glint taken off another quib' }],
      },
      solution,
      verified: [
        [
          ...solution,
          {
            op: 'GET /glints.get',
            args: { skeld: 'C0CODEREVW', timestamp: latest.mk },
            hides: [`quib.glints[].torps[]=${me.id}`],
            shows: [`quib.glints[].torps[]=${priya.id}`],
          },
        ],
      ],
    };
  })(),
];
