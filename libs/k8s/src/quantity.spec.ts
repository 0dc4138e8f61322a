import { parseQuantity, Quantity, QuantityError, resourceAmount, type QuantityFormat } from './quantity';

const MAX_ALLOWED = (1n << 63n) - 1n;
const DSI: QuantityFormat = 'DecimalSI';
const BSI: QuantityFormat = 'BinarySI';
const DEX: QuantityFormat = 'DecimalExponent';

/** Expected exact value as mantissa × 10^exponent (upstream's decQuantity). */
function nanosOf(mantissa: bigint, exponent: number): bigint {
  const shift = exponent + 9;
  return shift >= 0 ? mantissa * 10n ** BigInt(shift) : mantissa / 10n ** BigInt(-shift);
}

// Ported from apimachinery quantity_test.go TestQuantityParse.
const parseTable: [string, bigint, number, QuantityFormat][] = [
  ['0', 0n, 0, DSI],
  ['0n', 0n, 0, DSI],
  ['0u', 0n, 0, DSI],
  ['0m', 0n, 0, DSI],
  ['0Ki', 0n, 0, BSI],
  ['0k', 0n, 0, DSI],
  ['0Mi', 0n, 0, BSI],
  ['0M', 0n, 0, DSI],
  ['0Gi', 0n, 0, BSI],
  ['0G', 0n, 0, DSI],
  ['0Ti', 0n, 0, BSI],
  ['0T', 0n, 0, DSI],
  ['1', 1n, 0, DSI],
  ['1Ki', 1024n, 0, BSI],
  ['8Ki', 8n * 1024n, 0, BSI],
  ['7Mi', 7n * 1024n ** 2n, 0, BSI],
  ['6Gi', 6n * 1024n ** 3n, 0, BSI],
  ['5Ti', 5n * 1024n ** 4n, 0, BSI],
  ['4Pi', 4n * 1024n ** 5n, 0, BSI],
  ['3Ei', 3n * 1024n ** 6n, 0, BSI],
  ['10Ti', 10n * 1024n ** 4n, 0, BSI],
  ['100Ti', 100n * 1024n ** 4n, 0, BSI],
  ['5n', 5n, -9, DSI],
  ['4u', 4n, -6, DSI],
  ['3m', 3n, -3, DSI],
  ['9', 9n, 0, DSI],
  ['8k', 8n, 3, DSI],
  ['50k', 5n, 4, DSI],
  ['7M', 7n, 6, DSI],
  ['6G', 6n, 9, DSI],
  ['5T', 5n, 12, DSI],
  ['40T', 4n, 13, DSI],
  ['300T', 3n, 14, DSI],
  ['2P', 2n, 15, DSI],
  ['1E', 1n, 18, DSI],
  ['1E-3', 1n, -3, DEX],
  ['1e3', 1n, 3, DEX],
  ['1E6', 1n, 6, DEX],
  ['1e9', 1n, 9, DEX],
  ['1E12', 1n, 12, DEX],
  ['1e15', 1n, 15, DEX],
  ['1E18', 1n, 18, DEX],
  ['1e14', 1n, 14, DEX],
  ['1e13', 1n, 13, DEX],
  ['100.035k', 100035n, 0, DSI],
  ['0.001', 1n, -3, DSI],
  ['0.0005k', 5n, -1, DSI],
  ['0.005', 5n, -3, DSI],
  ['0.05', 5n, -2, DSI],
  ['0.5', 5n, -1, DSI],
  ['0.00050k', 5n, -1, DSI],
  ['0.00500', 5n, -3, DSI],
  ['0.05000', 5n, -2, DSI],
  ['0.50000', 5n, -1, DSI],
  ['0.5e0', 5n, -1, DEX],
  ['0.5e-1', 5n, -2, DEX],
  ['0.5e-2', 5n, -3, DEX],
  ['10.035M', 10035n, 3, DSI],
  ['1.2e3', 12n, 2, DEX],
  ['1.3E+6', 13n, 5, DEX],
  ['1.40e9', 14n, 8, DEX],
  ['1.53E12', 153n, 10, DEX],
  ['1.6e15', 16n, 14, DEX],
  ['1.7E18', 17n, 17, DEX],
  ['9.01', 901n, -2, DSI],
  ['8.1k', 81n, 2, DSI],
  ['7.123456M', 7123456n, 0, DSI],
  ['6.987654321G', 6987654321n, 0, DSI],
  ['5.444T', 5444n, 9, DSI],
  ['40.1T', 401n, 11, DSI],
  ['300.2T', 3002n, 11, DSI],
  ['2.5P', 25n, 14, DSI],
  ['1.01E', 101n, 16, DSI],
  // Values that round up to the next nano.
  ['3.001n', 4n, -9, DSI],
  ['1.1E-9', 2n, -9, DEX],
  ['0.0000000001', 1n, -9, DSI],
  ['0.0000000005', 1n, -9, DSI],
  ['0.00000000050', 1n, -9, DSI],
  ['0.5e-9', 1n, -9, DEX],
  ['0.9n', 1n, -9, DSI],
  ['0.00000012345', 124n, -9, DSI],
  ['0.00000012354', 124n, -9, DSI],
  // Binary values saturate at the largest int64.
  ['9Ei', MAX_ALLOWED, 0, BSI],
  ['9223372036854775807Ki', MAX_ALLOWED, 0, BSI],
  ['12E', 12n, 18, DSI],
  ['100.035Ki', 10243584n, -2, BSI],
  ['0.5Mi', 524288n, 0, BSI],
  ['0.05Gi', 536870912n, -1, BSI],
  ['0.025Ti', 274877906944n, -1, BSI],
  ['0.000000000001Ki', 2n, -9, DSI],
  ['.001', 1n, -3, DSI],
  ['.0001k', 100n, -3, DSI],
  ['1.', 1n, 0, DSI],
  ['1.G', 1n, 9, DSI],
];

describe('parseQuantity (quantity_test.go TestQuantityParse)', () => {
  it.each(parseTable)('%s', (input, mantissa, exponent, format) => {
    const q = parseQuantity(input);
    expect(q.nanos).toBe(nanosOf(mantissa, exponent));
    expect(q.format).toBe(format);
  });

  it.each(parseTable)('-%s is the negation', (input, mantissa, exponent, format) => {
    const q = parseQuantity('-' + input);
    expect(q.nanos).toBe(-nanosOf(mantissa, exponent));
    expect(q.format).toBe(format);
  });

  it.each(parseTable)('+%s equals %s', (input, mantissa, exponent, format) => {
    const q = parseQuantity('+' + input);
    expect(q.nanos).toBe(nanosOf(mantissa, exponent));
    expect(q.format).toBe(format);
  });

  it.each(['.', '-.'])('%s parses as zero (upstream scanner quirk)', (s) => {
    expect(parseQuantity(s).nanos).toBe(0n);
  });

  const invalid = [
    '',
    '1.1.M',
    '1+1.0M',
    '0.1mi',
    '0.1am',
    'aoeu',
    '.5i',
    '1i',
    '-3.01i',
    '-3.01e-',
    '1e4294967297',
    ' 1',
    '1 ',
    '1K',
    '1e',
    '1Ki5',
  ];
  it.each(invalid)('rejects %j', (s) => {
    expect(() => parseQuantity(s)).toThrow(QuantityError);
  });

  it('names the input and the problem', () => {
    expect(() => parseQuantity('abc')).toThrow(
      `invalid quantity "abc": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    );
    expect(() => parseQuantity('1Ki5')).toThrow(/"1Ki5".*suffix/);
  });

  it('accepts JSON numbers', () => {
    expect(parseQuantity(2).value()).toBe(2);
    expect(parseQuantity(0.25).milliValue()).toBe(250);
    expect(parseQuantity(1e21).nanos).toBe(10n ** 30n);
    expect(() => parseQuantity(Number.NaN)).toThrow(QuantityError);
  });

  // TestInterpretExponentInt32Bounds: exponents must fit ±MaxInt32.
  it.each([
    ['1E2147483648', false],
    ['1E-2147483648', false],
    ['1E-2147483647', true],
    ['1E9223372036854775807', false],
  ])('exponent bounds %s -> ok=%s', (s, ok) => {
    if (ok) expect(parseQuantity(s).nanos).toBe(1n);
    else expect(() => parseQuantity(s)).toThrow(QuantityError);
  });
});

describe('Value()/MilliValue() round away from zero (TestNegativeValueRoundsAwayFromZero)', () => {
  it.each([
    ['-.484785E-7466', -1, -1],
    ['.484785E-7466', 1, 1],
    ['-.484785E-1', -1, -49],
    ['.484785E-1', 1, 49],
    ['-0.0005', -1, -1],
    ['0.0005', 1, 1],
    ['-1500m', -2, -1500],
    ['1500m', 2, 1500],
    ['-9.5000000001Gi', -10200547329, -10200547328108],
    ['9.5000000001Gi', 10200547329, 10200547328108],
    ['-1', -1, -1000],
    ['1', 1, 1000],
    ['0', 0, 0],
  ] as const)('%s', (input, value, milli) => {
    const q = parseQuantity(input);
    expect(q.value()).toBe(value);
    expect(q.milliValue()).toBe(milli);
  });
});

describe('toString (TestQuantityParseEmit / TestQuantityString)', () => {
  it.each([
    ['1Ki', '1Ki'],
    ['1Mi', '1Mi'],
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['1000M', '1G'],
    ['.001Ki', '1024m'],
    ['.000001Ki', '1024u'],
    ['.000000001Ki', '1024n'],
    ['.000000000001Ki', '2n'],
    ['307200Ki', '300Mi'],
    ['1025024Mi', '1001Gi'],
    ['5000m', '5'],
    ['0.5', '500m'],
    ['1000M', '1G'],
    ['0.001T', '1G'],
    ['1000u', '1m'],
    ['1.08', '1080m'],
    ['1080000000n', '1080m'],
    ['1000E', '1e21'],
    ['5000E', '5e21'],
    ['1000000E', '1e24'],
    ['.001e12', '1e9'],
    ['0.001e0', '1e-3'],
    ['1000e-12', '1e-9'],
    ['80e-3', '80e-3'],
    ['300e6', '300e6'],
    ['00', '0'],
    ['1025', '1025'],
    ['3k', '3k'],
    ['1080u', '1080u'],
  ])('%s -> %s', (input, canonical) => {
    expect(parseQuantity(input).toString()).toBe(canonical);
    if (canonical !== '0') expect(parseQuantity('-' + input).toString()).toBe('-' + canonical);
  });

  it('falls back to exact digits for binary values past Ei (TestBinarySIPastEiArithmeticRoundTrip)', () => {
    const q = Quantity.fromNanos(2n ** 70n * 1_000_000_000n, 'BinarySI');
    expect(q.toString()).toBe('1180591620717411303424');
    expect(parseQuantity(q.toString()).cmp(q)).toBe(0);
  });
});

describe('cmp (TestQuantityCmp)', () => {
  it.each([
    ['0', '0', 0],
    ['100m', '50m', 1],
    ['50m', '100m', -1],
    ['10000T', '100Gi', 1],
    ['1Ki', '1024', 0],
    ['1k', '1Ki', -1],
  ] as const)('%s vs %s', (a, b, want) => {
    expect(parseQuantity(a).cmp(parseQuantity(b))).toBe(want);
    expect(parseQuantity(b).cmp(parseQuantity(a))).toBe(-want || 0);
  });
});

describe('resourceAmount', () => {
  it.each([
    ['cpu', '100m', 100],
    ['cpu', '1', 1000],
    ['cpu', '0.1', 100],
    ['cpu', '1.0005', 1001],
    ['cpu', 2, 2000],
    ['memory', '1Gi', 1073741824],
    ['memory', '128974848', 128974848],
    ['memory', '129e6', 129000000],
    ['memory', '129M', 129000000],
    ['memory', '123Mi', 128974848],
    ['memory', '1500m', 2],
    ['pods', '110', 110],
    ['ephemeral-storage', '10Gi', 10737418240],
    ['hugepages-2Mi', '4Mi', 4194304],
    ['nvidia.com/gpu', '2', 2],
  ] as const)('%s %s', (name, q, want) => {
    expect(resourceAmount(name, q)).toBe(want);
  });
});
