/**
 * Exact decimal amounts for money: what the gateway wrote, added without binary floating point
 * or a fixed scale. An amount is an integer of units at a number of decimals (its scale); a sum
 * is taken at the largest scale among its terms, so nothing is ever rounded.
 */

/** `units / 10^scale`, exactly. */
export interface Decimal {
	units: bigint;
	/** Decimals after the point (0 or more). */
	scale: number;
}

/**
 * Longest text read as an amount, and most digits on either side of the point once an exponent
 * is applied: far beyond any price (and any sum of prices), small enough that a hostile value
 * cannot make huge numbers. Every finite JSON number fits (the smallest, 5e-324, has 324
 * decimals), and so does any sum of them written out in full.
 */
const MAX_TEXT_LENGTH = 1000;
const MAX_DIGITS = 400;

/** Sign, integer digits, fraction digits (either may be empty, not both), optional exponent. */
const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * Reads an amount exactly. Strings: optional sign (`+` or `-`), digits with an optional point
 * (`.5` and `5.` are read), optional exponent (`1.5e-7`, applied exactly); surrounding
 * whitespace is ignored. Numbers: their shortest round-trip text (`0.1` is 0.1, not the binary
 * value nearest to it). Anything else — empty text, `NaN`, `Infinity`, hex, separators, more
 * than 1,000 characters, more than 400 digits before or after the point — is null.
 */
export function parseDecimal(value: unknown): Decimal | null {
	if (typeof value === 'number') return Number.isFinite(value) ? parseText(String(value)) : null;
	if (typeof value !== 'string') return null;
	return parseText(value.trim());
}

function parseText(text: string): Decimal | null {
	if (text.length === 0 || text.length > MAX_TEXT_LENGTH) return null;
	const match = DECIMAL_TEXT.exec(text);
	if (!match) return null;
	const [, sign, whole, fraction = '', exponentText] = match;
	if (whole === '' && fraction === '') return null;
	const exponent = exponentText === undefined ? 0 : Number(exponentText);
	let scale = fraction.length - exponent;
	const digits = (whole + fraction).replace(/^0+(?=\d)/, '');
	// Digits before the point once the exponent is applied: refuse what would be enormous.
	if (scale > MAX_DIGITS || digits.length - scale > MAX_DIGITS) return null;
	let units = BigInt(digits);
	if (scale < 0) {
		units *= 10n ** BigInt(-scale);
		scale = 0;
	}
	return { units: sign === '-' ? -units : units, scale };
}

/** The same amount at a scale at least its own. */
export function rescale(amount: Decimal, scale: number): Decimal {
	if (scale < amount.scale) {
		throw new RangeError(`Cannot rescale ${amount.scale} decimals down to ${scale}`);
	}
	return { units: amount.units * 10n ** BigInt(scale - amount.scale), scale };
}

/** The exact sum, at the largest scale among the amounts (0 for no amounts). */
export function addDecimals(...amounts: Decimal[]): Decimal {
	const scale = amounts.reduce((largest, amount) => Math.max(largest, amount.scale), 0);
	let units = 0n;
	for (const amount of amounts) units += rescale(amount, scale).units;
	return { units, scale };
}

/** Plain decimal text with exactly `scale` decimals: `0.2469134`, `-1.50`, `3`; never `-0`. */
export function formatDecimal(amount: Decimal): string {
	const negative = amount.units < 0n;
	const digits = (negative ? -amount.units : amount.units)
		.toString()
		.padStart(amount.scale + 1, '0');
	const whole = digits.slice(0, digits.length - amount.scale);
	const fraction = digits.slice(digits.length - amount.scale);
	const text = amount.scale > 0 ? `${whole}.${fraction}` : whole;
	return negative ? `-${text}` : text;
}

/** The number nearest to the amount (for outputs that want a number; the text stays exact). */
export function decimalToNumber(amount: Decimal): number {
	return Number(formatDecimal(amount));
}

/** The same amount without trailing zero decimals (`0.500000` → `0.5`, `2.000` → `2`). */
export function trimDecimal(amount: Decimal): Decimal {
	let { units, scale } = amount;
	while (scale > 0 && units % 10n === 0n) {
		units /= 10n;
		scale--;
	}
	return { units, scale };
}
