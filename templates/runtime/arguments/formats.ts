// The formats the argument checks enforce (the generator keeps only these in the checked schemas; any other format
// a description names is not checked). They follow the RFCs where APIs do, and are lenient where APIs are: a
// date-time may leave out its seconds or its UTC offset, which real APIs read as UTC and which models often send.

type Format =
  { type: 'string'; validate: (value: string) => boolean } | { type: 'number'; validate: (value: number) => boolean };

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && !leap ? 28 : (DAYS[month - 1] ?? 0));
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:[Zz]|[+-](\d{2})(?::?(\d{2}))?)?$/;

function validTime(text: string): boolean {
  const match = TIME.exec(text);
  if (!match) return false;
  const [hour = 0, minute = 0, second = 0, offsetHour = 0, offsetMinute = 0] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  return hour <= 23 && minute <= 59 && second <= 60 && offsetHour <= 23 && offsetMinute <= 59;
}

function validDateText(text: string): boolean {
  const match = DATE.exec(text);
  return match !== null && validDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;

function validIpv6(text: string): boolean {
  let address = text;
  const lastColon = address.lastIndexOf(':');
  // An IPv4 address may end an IPv6 one (::ffff:192.0.2.1); it takes two groups.
  if (address.includes('.')) {
    if (!IPV4.test(address.slice(lastColon + 1))) return false;
    address = `${address.slice(0, lastColon + 1)}0:0`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return false;
  const parts = halves.map((half) => (half === '' ? [] : half.split(':')));
  if (!parts.every((list) => list.every((group) => HEX_GROUP.test(group)))) return false;
  const count = parts.reduce((sum, list) => sum + list.length, 0);
  return halves.length === 2 ? count < 8 : count === 8;
}

export const FORMATS: Record<string, Format> = {
  'date-time': {
    type: 'string',
    validate: (value) => {
      const split = /^(\d{4}-\d{2}-\d{2})[Tt ](.+)$/.exec(value);
      return split !== null && validDateText(split[1] ?? '') && validTime(split[2] ?? '');
    },
  },
  date: { type: 'string', validate: validDateText },
  time: { type: 'string', validate: validTime },
  email: { type: 'string', validate: (value) => /^[^\s@]+@[^\s@]+$/.test(value) },
  // An absolute URI: a scheme, then no white space (a relative reference is refused: the API would not know its base).
  uri: { type: 'string', validate: (value) => /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/.test(value) },
  uuid: {
    type: 'string',
    validate: (value) => /^(?:urn:uuid:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value),
  },
  ipv4: { type: 'string', validate: (value) => IPV4.test(value) },
  ipv6: { type: 'string', validate: validIpv6 },
  // Base64 or base64url text; its length is not checked (some APIs drop the padding).
  byte: { type: 'string', validate: (value) => /^[A-Za-z0-9+/_-]*={0,2}$/.test(value) },
  int32: {
    type: 'number',
    validate: (value) => Number.isInteger(value) && value >= -(2 ** 31) && value <= 2 ** 31 - 1,
  },
  int64: { type: 'number', validate: (value) => Number.isInteger(value) && Math.abs(value) <= 2 ** 63 },
};

/** A value of each format for error messages. */
export const FORMAT_EXAMPLES: Record<string, string | number> = {
  'date-time': '2024-01-31T12:00:00Z',
  date: '2024-01-31',
  time: '12:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com/',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'aGVsbG8=',
  int32: 1,
  int64: 1,
};

/** What each format means, for error messages. */
export const FORMAT_WORDS: Record<string, string> = {
  'date-time': 'a date and time (RFC 3339)',
  date: 'a date (YYYY-MM-DD)',
  time: 'a time of day (hh:mm:ss)',
  email: 'an email address',
  uri: 'an absolute URI (with a scheme such as https:)',
  uuid: 'a UUID',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  byte: 'base64 text',
  int32: 'a whole number between -2147483648 and 2147483647',
  int64: 'a whole number of at most 64 bits',
};
