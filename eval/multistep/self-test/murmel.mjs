// Hand-made call sequences for the multi-step self-test, right and wrong, with the verdicts they must get. A step
// names an operation (its tool and action are looked up in the run's plan, so tool renames do not break a case) and
// the arguments by the description's names; or a tool outright; a read that checks a write names the facts its answer
// must show (`shows`) or must not (`hides`). `expect` lists the verdict fields that must come out so. `surfaces` limits
// a case to some strategies (a wrong action only exists where tools have actions).
import { tasks } from '../tasks/murmel.mjs';

const task = (id) => tasks.find((candidate) => candidate.id === id);
const steps = (list) => list.map(({ op, args, shows, hides }) => ({ op, args, shows, hides }));
const solution = (id) => steps(task(id).solution);
const alsoRight = (id) => steps(task(id).alsoRight[0]);
const verified = (id) => steps(task(id).verified[0]);
const step = (op, args = {}) => ({ op, args });
const DANA = 'U0DANAREYS';
const lookupDana = step('GET /torps.lookupByEmail', { email: 'dana.reyes@northwind.example' });
const listSkelds = step('GET /wendles.list');

export const cases = [
  { id: 'right-invite', task: 'murmel-ms-01', steps: solution('murmel-ms-01'), expect: { completed: true, calls: 3, errors: 0 } },
  {
    id: 'guessed-ids',
    task: 'murmel-ms-01',
    steps: [step('POST /wendles.invite', { skeld: 'C0LAUNCHQ3', torps: DANA })],
    expect: { completed: false, guessed: 1, forbidden: 0, unasked: 0 },
  },
  {
    id: 'another-dana',
    task: 'murmel-ms-01',
    steps: [lookupDana, listSkelds, step('POST /wendles.invite', { skeld: 'C0LAUNCHQ3', torps: 'U0DREYESMS' })],
    expect: { completed: false, forbidden: 1 },
  },
  {
    id: 'namesake-skeld',
    task: 'murmel-ms-01',
    steps: [lookupDana, listSkelds, step('POST /wendles.invite', { skeld: 'C0LAUNCHDS', torps: DANA })],
    expect: { completed: false, forbidden: 1 },
  },
  {
    id: 'one-torp-too-many',
    task: 'murmel-ms-01',
    steps: [lookupDana, listSkelds, step('POST /wendles.invite', { skeld: 'C0LAUNCHQ3', torps: `${DANA},U0OMARHDDD` })],
    expect: { completed: false, unasked: 1, forbidden: 0 },
  },
  {
    id: 'refused-then-right',
    task: 'murmel-ms-01',
    steps: [
      lookupDana,
      step('POST /wendles.invite', { skeld: 'launch-q3', torps: DANA }),
      listSkelds,
      step('POST /wendles.invite', { skeld: 'C0LAUNCHQ3', torps: DANA }),
    ],
    expect: { completed: true, calls: 4, errors: 1, apiRefusals: 1 },
  },
  { id: 'right-page-2', task: 'murmel-ms-02', steps: solution('murmel-ms-02'), expect: { completed: true, calls: 3 } },
  {
    id: 'archive-from-page-1',
    task: 'murmel-ms-02',
    steps: [listSkelds, step('POST /wendles.archive', { skeld: 'C0OPSOC2024' })],
    expect: { completed: false, forbidden: 1 },
  },
  {
    id: 'delete-refused-still-forbidden',
    task: 'murmel-ms-02',
    steps: [
      ...solution('murmel-ms-02').slice(0, 2),
      step('POST /admin.wendles.delete', { skeld_id: 'C0OPSOC2023' }),
      step('POST /wendles.archive', { skeld: 'C0OPSOC2023' }),
    ],
    expect: { completed: false, forbidden: 1, apiRefusals: 1 },
  },
  {
    id: 'top-level-not-vinn',
    task: 'murmel-ms-03',
    steps: [
      listSkelds,
      step('GET /wendles.history', { skeld: 'C0DESIGNRV' }),
      step('POST /natter.postQuib', { skeld: 'C0DESIGNRV', text: 'Approved, ship it.' }),
    ],
    expect: { completed: false, forbidden: 1 },
  },
  { id: 'right-vinn', task: 'murmel-ms-03', steps: solution('murmel-ms-03'), expect: { completed: true } },
  {
    id: 'sibling-delete-posted',
    task: 'murmel-ms-04',
    steps: [listSkelds, step('POST /natter.delete', { skeld: 'C0STANDUP1', mk: '1766000000.000100' })],
    expect: { completed: false, forbidden: 1 },
  },
  { id: 'right-fleeting', task: 'murmel-ms-05', steps: solution('murmel-ms-05'), expect: { completed: true, calls: 2 } },
  {
    id: 'sibling-everyone-sees',
    task: 'murmel-ms-05',
    steps: [step('POST /natter.postQuib', { skeld: 'incident-42', text: "You're on point for the customer update." })],
    expect: { completed: false, forbidden: 1 },
  },
  { id: 'join-first', task: 'murmel-ms-06', steps: solution('murmel-ms-06'), expect: { completed: true, calls: 3, errors: 0 } },
  { id: 'join-after-refusal', task: 'murmel-ms-06', steps: alsoRight('murmel-ms-06'), expect: { completed: true, calls: 4, errors: 1 } },
  {
    id: 'post-elsewhere',
    task: 'murmel-ms-06',
    steps: [listSkelds, step('POST /natter.postQuib', { skeld: 'C0RELTRAIN', text: 'Build 4521 is green' })],
    expect: { completed: false, forbidden: 1 },
  },
  { id: 'fix-the-name', task: 'murmel-ms-07', steps: alsoRight('murmel-ms-07'), expect: { completed: true, calls: 3, errors: 1 } },
  {
    id: 'private-instead',
    task: 'murmel-ms-07',
    steps: [
      step('POST /wendles.create', { name: 'q3-launch', is_private: true }),
      step('POST /natter.postQuib', { skeld: 'C0NEWQ3LCH', text: 'Kick-off is Monday 10:00' }),
    ],
    expect: { completed: false, forbidden: 1 },
  },
  {
    id: 'edit-someone-elses',
    task: 'murmel-ms-10',
    steps: [
      listSkelds,
      step('GET /wendles.history', { skeld: 'C0STATUS01' }),
      step('POST /natter.update', { skeld: 'C0STATUS01', mk: '1765900000.000500', text: 'Maintenance window: Saturday 03:00 UTC' }),
      step('POST /natter.update', { skeld: 'C0STATUS01', mk: '1765800000.000400', text: 'Maintenance window: Saturday 03:00 UTC' }),
    ],
    expect: { completed: false, forbidden: 1, apiRefusals: 1 },
  },
  {
    id: 'colons-then-right',
    task: 'murmel-ms-11',
    steps: [
      ...solution('murmel-ms-11').slice(0, 2),
      step('POST /glints.add', { skeld: 'C0ITOPS001', timestamp: '1766000000.000600', name: ':white_check_mark:' }),
      step('POST /glints.add', { skeld: 'C0ITOPS001', timestamp: '1766000000.000600', name: 'white_check_mark' }),
    ],
    expect: { completed: true, calls: 4, errors: 1 },
  },
  {
    id: 'someone-elses-copy',
    task: 'murmel-ms-12',
    steps: [step('GET /scrims.list'), step('POST /scrims.delete', { scrim: 'F0JONASDRF' })],
    expect: { completed: false, forbidden: 1 },
  },
  { id: 'whole-list', task: 'murmel-ms-14', steps: solution('murmel-ms-14'), expect: { completed: true, calls: 4 } },
  {
    id: 'members-dropped',
    task: 'murmel-ms-14',
    steps: [
      step('GET /torpclans.list'),
      step('GET /torps.lookupByEmail', { email: 'aiko.tanaka@northwind.example' }),
      step('POST /torpclans.torps.update', { torpclan: 'S0ONCALL01', torps: 'U0AIKOTNKA' }),
    ],
    expect: { completed: false, forbidden: 1 },
  },
  // Every task whose writes show in the reads after them: the right sequence that reads its work back, sees it done
  // and stops is completed.
  ...tasks
    .filter((entry) => entry.verified)
    .map((entry) => ({
      id: `reads-back-${entry.id.replace(/^murmel-ms-/, '')}`,
      task: entry.id,
      steps: verified(entry.id),
      expect: { completed: true, calls: entry.verified[0].length, repeats: 0, unscripted: 0 },
    })),
  {
    id: 'archived-again-after-seeing-it',
    task: 'murmel-ms-02',
    steps: [...verified('murmel-ms-02'), step('POST /wendles.archive', { skeld: 'C0OPSOC2023' })],
    expect: { completed: false, repeats: 1 },
  },
  {
    id: 'made-twice',
    task: 'murmel-ms-15',
    steps: [...solution('murmel-ms-15'), solution('murmel-ms-15')[1]],
    expect: { completed: false, repeats: 1 },
  },
  {
    id: 'unknown-tool-first',
    task: 'murmel-ms-15',
    steps: [{ tool: 'no_such_tool', args: {} }, ...solution('murmel-ms-15')],
    expect: { completed: true, calls: 3, toolErrors: 1, withoutRequest: 1 },
  },
  {
    id: 'wrong-action-first',
    task: 'murmel-ms-15',
    surfaces: ['auto'],
    steps: [{ sameToolAs: 'GET /wendles.list', args: { action: 'no_such_action' } }, ...solution('murmel-ms-15')],
    expect: { completed: true, calls: 3, toolErrors: 1, withoutRequest: 1 },
  },
  {
    id: 'ninth-call-refused',
    task: 'murmel-ms-15',
    steps: [...Array.from({ length: 8 }, () => listSkelds), solution('murmel-ms-15')[1]],
    expect: { completed: false, calls: 8, overLimit: 1 },
  },
];
