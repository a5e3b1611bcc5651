import {
	addDecimals,
	decimalToNumber,
	formatDecimal,
	parseDecimal,
	rescale,
	trimDecimal,
	type Decimal,
} from '../../nodes/shared/money/decimal';

const read = (value: unknown): Decimal => {
	const amount = parseDecimal(value);
	if (!amount) throw new Error(`unreadable: ${String(value)}`);
	return amount;
};
const sum = (...values: unknown[]) => formatDecimal(addDecimals(...values.map(read)));

/** What the Batch Report did before: each amount rounded to millionths, then added. */
const millionths = (...values: number[]) =>
	values.reduce((total, value) => total + Math.round(value * 1_000_000), 0) / 1_000_000;

describe('exact decimal money', () => {
	it('adds amounts that binary floating point and millionths both get wrong', () => {
		// The example: millionths say 0.246914 (doubling happens to be exact in binary).
		expect(millionths(0.1234567, 0.1234567)).toBe(0.246914);
		expect(sum('0.1234567', '0.1234567')).toBe('0.2469134');
		// A third task: both binary floating point and millionths are wrong.
		expect(0.1234567 + 0.1234567 + 0.1234567).toBe(0.37037010000000004);
		expect(millionths(0.1234567, 0.1234567, 0.1234567)).toBe(0.370371);
		expect(sum('0.1234567', '0.1234567', '0.1234567')).toBe('0.3703701');

		expect(0.1 + 0.2).not.toBe(0.3);
		expect(sum('0.1', '0.2')).toBe('0.3');

		// 1e-7-level amounts: millionths round each one to nothing.
		expect(millionths(0.0000001, 0.0000004)).toBe(0);
		expect(sum('0.0000001', '0.0000004')).toBe('0.0000005');
		expect(sum(0.0000001, '0.00000004')).toBe('0.00000014');
	});

	it('adds 1,000 amounts of 0.0000001 to exactly 0.0001', () => {
		const amounts = Array.from({ length: 1000 }, () => '0.0000001');
		let float = 0;
		for (const amount of amounts) float += Number(amount);
		expect(float).not.toBe(0.0001);
		expect(millionths(...amounts.map(Number))).toBe(0);
		expect(sum(...amounts)).toBe('0.0001000');
		expect(trimDecimal(addDecimals(...amounts.map(read)))).toEqual({ units: 1n, scale: 4 });
	});

	it('keeps 20 and more significant digits', () => {
		expect(sum('12345678901234567890.123456789', '0.000000001')).toBe(
			'12345678901234567890.123456790',
		);
		expect(sum('99999999999999999999.99', '0.01')).toBe('100000000000000000000.00');
		expect(Number('12345678901234567890.123456789') + 0.000000001).toBe(
			12345678901234567000, // the float has lost everything after the 17th digit
		);
	});

	it('reads signs, a leading plus, a missing integer part, trailing points and whitespace', () => {
		expect(parseDecimal('+0.50')).toEqual({ units: 50n, scale: 2 });
		expect(parseDecimal('-1.25')).toEqual({ units: -125n, scale: 2 });
		expect(parseDecimal('.5')).toEqual({ units: 5n, scale: 1 });
		expect(parseDecimal('-.5')).toEqual({ units: -5n, scale: 1 });
		expect(parseDecimal('5.')).toEqual({ units: 5n, scale: 0 });
		expect(parseDecimal(' 007.10 ')).toEqual({ units: 710n, scale: 2 });
		expect(sum('1.25', '-0.5', '+0.25')).toBe('1.00');
		expect(sum('-0.1', '0.1')).toBe('0.0');
		expect(formatDecimal(read('-0.000'))).toBe('0.000');
		expect(formatDecimal(read('-0.05'))).toBe('-0.05');
	});

	it('applies exponents exactly, as the decimals they stand for', () => {
		expect(parseDecimal('1e-7')).toEqual({ units: 1n, scale: 7 });
		expect(parseDecimal('1.50E-3')).toEqual({ units: 150n, scale: 5 });
		expect(parseDecimal('2.5e+3')).toEqual({ units: 2500n, scale: 0 });
		expect(parseDecimal('-12e2')).toEqual({ units: -1200n, scale: 0 });
		expect(formatDecimal(read('1.50E-3'))).toBe('0.00150');
		expect(sum('1e-7', '0.1234567')).toBe('0.1234568');
	});

	it('reads JSON numbers through their shortest round-trip text', () => {
		expect(parseDecimal(0.1)).toEqual({ units: 1n, scale: 1 });
		expect(parseDecimal(1e-7)).toEqual({ units: 1n, scale: 7 }); // String(1e-7) is '1e-7'
		expect(parseDecimal(1e21)).toEqual({ units: 10n ** 21n, scale: 0 }); // '1e+21'
		expect(parseDecimal(-0)).toEqual({ units: 0n, scale: 0 });
		expect(sum(0.1, 0.2)).toBe('0.3');
		expect(formatDecimal(read(5e-324))).toBe(`0.${'0'.repeat(323)}5`);
	});

	it('refuses what is not a decimal amount', () => {
		for (const value of [
			'',
			'  ',
			'.',
			'-',
			'+.',
			'e5',
			'1e',
			'1.2.3',
			'1,5',
			'1 000',
			'1_000',
			'0x10',
			'NaN',
			'Infinity',
			'-Infinity',
			'½',
			'1e999',
			'1e-999',
			'9'.repeat(401),
			`0.${'1'.repeat(401)}`,
			`1${'0'.repeat(1000)}e-1000`,
			Number.NaN,
			Number.POSITIVE_INFINITY,
			null,
			undefined,
			true,
			{},
			[],
			10n,
		]) {
			expect(parseDecimal(value)).toBeNull();
		}
	});

	it('rescales only upwards, formats with exactly its decimals, converts to the nearest number', () => {
		expect(rescale(read('1.5'), 4)).toEqual({ units: 15000n, scale: 4 });
		expect(() => rescale(read('1.55'), 1)).toThrow(RangeError);
		expect(formatDecimal({ units: 7n, scale: 3 })).toBe('0.007');
		expect(formatDecimal({ units: 1234n, scale: 0 })).toBe('1234');
		expect(formatDecimal(addDecimals())).toBe('0');
		expect(decimalToNumber(read('0.2469134'))).toBe(0.2469134);
		expect(trimDecimal(read('2.000'))).toEqual({ units: 2n, scale: 0 });
		expect(trimDecimal(read('0'))).toEqual({ units: 0n, scale: 0 });
	});
});
