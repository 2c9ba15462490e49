// Murmel's objects (Slack's, renamed) as its description's schemas have them — skelds, torps, quibs, scrims,
// torpclans — and the rules that serve them: lists paged by cursor as the API pages them, look-ups by id and email.
// check-tasks.mjs checks every body these build against the operation's response schema.

export const KRELL = 'T0NORTHWND';
const AVATAR = 'https://avatars.murmel.example/';

/** The people of the workspace, the caller first. Near-namesakes are on purpose: they are the distractors. */
export const PEOPLE = {
  me: { id: 'U0SAMOKORO', name: 'sam.okoro', real: 'Sam Okoro', email: 'sam.okoro@northwind.example' },
  dana: { id: 'U0DANAREYS', name: 'dana.reyes', real: 'Dana Reyes', email: 'dana.reyes@northwind.example', title: 'Product manager' },
  danaOld: { id: 'U0DANAROLD', name: 'dana.reyes.old', real: 'Dana Reyes', email: 'dana.reyes@oldco.example', deleted: true },
  danaMarsh: { id: 'U0DREYESMS', name: 'dana.reyes-marsh', real: 'Dana Reyes-Marsh', email: 'dana.reyes-marsh@northwind.example' },
  ravi: { id: 'U0RAVIMENN', name: 'ravi.menon', real: 'Ravi Menon', email: 'ravi.menon@northwind.example', title: 'Support engineer' },
  raviPatel: { id: 'U0RAVIPATL', name: 'ravi.patel', real: 'Ravi Patel', email: 'ravi.patel@northwind.example' },
  marco: { id: 'U0MARCOBIA', name: 'marco.bianchi', real: 'Marco Bianchi', email: 'marco.bianchi@northwind.example' },
  marcoB: { id: 'U0MBIANCHN', name: 'marco.bianchini', real: 'Marco Bianchini', email: 'marco.bianchini@northwind.example' },
  tomas: {
    id: 'U0TALVAREZ',
    name: 'tomas.alvarez',
    real: 'Tomás Alvarez',
    email: 'tomas.alvarez@acme-vendor.example',
    title: 'Vendor liaison',
  },
  tomasAlvarado: { id: 'U0TALVARAD', name: 'tomas.alvarado', real: 'Tomas Alvarado', email: 'tomas.alvarado@northwind.example' },
  tomasRuiz: {
    id: 'U0TALVRUIZ',
    name: 'tomas.alvarez.ruiz',
    real: 'Tomás Álvarez Ruiz',
    email: 'tomas.ruiz@northwind.example',
    deleted: true,
  },
  lena: { id: 'U0LENAOKFR', name: 'lena.okafor', real: 'Lena Okafor', email: 'lena.okafor@northwind.example', title: 'Finance' },
  jonas: { id: 'U0JONASWBR', name: 'jonas.weber', real: 'Jonas Weber', email: 'jonas.weber@northwind.example' },
  priya: { id: 'U0PRIYARMN', name: 'priya.raman', real: 'Priya Raman', email: 'priya.raman@northwind.example', title: 'Designer' },
  omar: { id: 'U0OMARHDDD', name: 'omar.haddad', real: 'Omar Haddad', email: 'omar.haddad@northwind.example', title: 'IT operations' },
  ben: { id: 'U0BENCARTR', name: 'ben.carter', real: 'Ben Carter', email: 'ben.carter@northwind.example' },
  benK: { id: 'U0BENKRAUS', name: 'ben.k', real: 'Benedikt Kraus', email: 'benedikt.kraus@northwind.example' },
  aiko: { id: 'U0AIKOTNKA', name: 'aiko.tanaka', real: 'Aiko Tanaka', email: 'aiko.tanaka@northwind.example' },
};

export const ok = (body = {}) => ({ ok: true, ...body });
export const refusal = (error) => ({ ok: false, error });

export function torp(person) {
  return {
    id: person.id,
    krell_id: KRELL,
    name: person.name,
    real_name: person.real,
    deleted: person.deleted === true,
    is_admin: false,
    is_golem: false,
    is_plugo_torp: false,
    updated: 1_764_000_000,
    tz: 'Europe/Berlin',
    profile: {
      real_name: person.real,
      real_name_normalized: plain(person.real),
      display_name: person.name,
      display_name_normalized: person.name,
      avatar_hash: 'g0a1b2c3d4e5',
      title: person.title ?? '',
      phone: '',
      skype: '',
      status_text: '',
      status_glyphet: '',
      fields: null,
      email: person.email,
    },
  };
}

/** The short profile a quib carries: enough for a reader to see who wrote it. */
function shortProfile(person) {
  return {
    avatar_hash: 'g0a1b2c3d4e5',
    image_72: `${AVATAR}${person.id}_72.png`,
    first_name: person.real.split(' ')[0],
    real_name: person.real,
    display_name: person.name,
    krell: KRELL,
    name: person.name,
    is_restricted: false,
    is_ultra_restricted: false,
  };
}

function plain(text) {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

export function skeld({
  id,
  name,
  created = 1_700_000_000,
  creator = PEOPLE.me.id,
  isPrivate = false,
  archived = false,
  member = true,
  headnote = '',
  aimnote = '',
  members = 8,
}) {
  const note = (value) => ({ value, creator: value ? creator : '', last_set: value ? created : 0 });
  return {
    id,
    name,
    name_normalized: name,
    created,
    creator,
    is_skeld: true,
    is_cohort: false,
    is_duo: false,
    is_multiduo: false,
    is_general: name === 'general',
    is_private: isPrivate,
    is_archived: archived,
    is_shared: false,
    is_org_shared: false,
    is_member: member,
    num_members: members,
    headnote: note(headnote),
    aimnote: note(aimnote),
  };
}

export function quib({ mk, by, text, vinnMk, replies, glints }) {
  return {
    type: 'quib',
    mk,
    torp: by.id,
    text,
    torp_profile: shortProfile(by),
    ...(vinnMk ? { vinn_mk: vinnMk } : {}),
    ...(replies ? { reply_count: replies.count, latest_reply: replies.latest, vinn_mk: mk } : {}),
    ...(glints
      ? { glints: glints.map(([name, people]) => ({ name, torps: people.map((person) => person.id), count: people.length })) }
      : {}),
  };
}

export function scrim({ id, name, by, created, skelds = [], size = 48_213 }) {
  const xlsx = name.endsWith('.xlsx');
  return {
    id,
    name,
    title: name,
    torp: by.id,
    created,
    timestamp: created,
    scrimtype: name.split('.').pop(),
    pretty_type: xlsx ? 'Excel Spreadsheet' : name.split('.').pop().toUpperCase(),
    mimetype: xlsx ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'application/octet-stream',
    size,
    skelds,
    is_external: false,
    fixlink: `https://northwind.murmel.example/scrims/${by.id}/${id}/${name}`,
  };
}

export function torpclan({ id, handle, name, description = '', deleted = 0, members = [] }) {
  return {
    id,
    krell_id: KRELL,
    is_torpclan: true,
    is_subkrell: false,
    name,
    description,
    handle,
    is_external: false,
    date_create: 1_690_000_000,
    date_update: 1_760_000_000,
    date_delete: deleted,
    auto_type: null,
    auto_provision: false,
    enterprise_subkrell_id: '',
    created_by: PEOPLE.me.id,
    updated_by: PEOPLE.me.id,
    deleted_by: null,
    prefs: { skelds: [], cohorts: [] },
    torp_count: members.length,
  };
}

/**
 * A list the API pages by cursor: one rule per page, the first for no cursor (Slack reads an empty one as none), each
 * page naming the next page's cursor in `response_metadata.next_cursor` ("" on the last). `wrap(items, next)` builds
 * the body. With `unless`, the rules apply only where those arguments do not match (a filtered variant comes first).
 */
export function pagedByCursor(op, items, { perPage, cursors, wrap, params = {} }) {
  const pages = [];
  for (let start = 0; start < items.length; start += perPage) pages.push(items.slice(start, start + perPage));
  if (pages.length === 0) pages.push([]);
  if (cursors.length < pages.length - 1) throw new Error(`${op}: ${pages.length} pages need ${pages.length - 1} cursors`);
  return pages.map((page, index) => ({
    op,
    params: { ...params, cursor: index === 0 ? { $absent: true } : cursors[index - 1] },
    body: wrap(page, index < pages.length - 1 ? cursors[index] : ''),
  }));
}

/** `wendles.list`, paged, archived skelds left out when the caller asks so; and `wendles.info` for every skeld. */
export function skeldDirectory(skelds, { perPage = 20, cursors = [], archivedCursors = cursors.map((cursor) => `${cursor}QQ`) } = {}) {
  const wrap = (page, next) => ok({ skelds: page, response_metadata: { next_cursor: next } });
  const excluding = { exclude_archived: { $anyOf: ['true', '1'] } };
  return [
    ...pagedByCursor(
      'GET /wendles.list',
      skelds.filter((candidate) => !candidate.is_archived),
      { perPage, cursors: archivedCursors, wrap, params: excluding },
    ),
    ...pagedByCursor('GET /wendles.list', skelds, { perPage, cursors, wrap }),
    ...skelds.map((candidate) => ({ op: 'GET /wendles.info', params: { skeld: candidate.id }, body: ok({ skeld: candidate }) })),
  ];
}

/** `wendles.members` of one skeld: the ids of `people`, one page. */
export function members(skeldId, people) {
  return {
    op: 'GET /wendles.members',
    params: { skeld: skeldId },
    body: ok({ members: people.map((person) => person.id), response_metadata: { next_cursor: '' } }),
  };
}

/** `wendles.history` of one skeld, newest first, one page. */
export function history(skeldId, quibs) {
  return {
    op: 'GET /wendles.history',
    params: { skeld: skeldId },
    body: ok({ quibs, has_more: false, frob_count: 0, skeld_actions_count: 0, skeld_actions_mk: null }),
  };
}

/** Who the caller is, every person by id and email, and the directory in one page: the same in every task. */
export function commonRules() {
  const everyone = Object.values(PEOPLE);
  return [
    {
      op: 'GET /auth.test',
      body: ok({
        url: 'https://northwind.murmel.example/',
        krell: 'Northwind',
        torp: PEOPLE.me.name,
        krell_id: KRELL,
        torp_id: PEOPLE.me.id,
      }),
    },
    { op: 'GET /torps.identity', body: ok({ torp: { id: PEOPLE.me.id, name: PEOPLE.me.real }, krell: { id: KRELL } }) },
    ...everyone.map((person) => ({ op: 'GET /torps.info', params: { torp: person.id }, body: ok({ torp: torp(person) }) })),
    ...everyone
      .filter((person) => !person.deleted)
      .map((person) => ({
        op: 'GET /torps.lookupByEmail',
        params: { email: { $pattern: `^${escape(person.email)}$`, $flags: 'i' } },
        body: ok({ torp: torp(person) }),
      })),
    { op: 'GET /torps.lookupByEmail', body: refusal('torps_not_found') },
    ...pagedByCursor('GET /torps.list', everyone.map(torp), {
      perPage: 100,
      cursors: [],
      wrap: (page, next) => ok({ members: page, cache_mk: 1_766_000_000, response_metadata: { next_cursor: next } }),
    }),
  ];
}

export function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The rules of the world once `write` (`{ op, params }`) was accepted: each waits for it, so a read made after the
 * write shows its effect. They go before the rules of the world before it, since the first rule that matches answers;
 * a body's `"{{after.0.name}}"` is the argument `name` the write sent (lib/upstream.mjs).
 */
export function afterAccepted(write, rules) {
  return rules.map((rule) => ({ ...rule, after: [write, ...(rule.after ?? [])] }));
}
