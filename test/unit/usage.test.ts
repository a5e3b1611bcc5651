import {
	CHAT_USAGE,
	RESPONSES_USAGE,
	normalizeCost,
	normalizeUsage,
} from '../../nodes/shared/gateway/usage';

const MONEY = {
	currency: 'currency',
	input: 'input_cost',
	output: 'output_cost',
	total: 'total_cost',
};

describe('normalized usage and cost', () => {
	it('maps each answer shape onto the same keys, null where a count was not reported', () => {
		expect(
			normalizeUsage({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 }, CHAT_USAGE),
		).toEqual({ inputTokens: 3, outputTokens: 4, totalTokens: 7, reasoningTokens: null });
		expect(
			normalizeUsage(
				{ input_tokens: 1, output_tokens: 2, output_tokens_details: { reasoning_tokens: 5 } },
				RESPONSES_USAGE,
			),
		).toEqual({ inputTokens: 1, outputTokens: 2, totalTokens: null, reasoningTokens: 5 });
	});

	it('says nothing for an answer without usage, or with no count it knows', () => {
		expect(normalizeUsage(undefined, CHAT_USAGE)).toBeNull();
		expect(normalizeUsage([1, 2], CHAT_USAGE)).toBeNull();
		expect(normalizeUsage({ total_tokens: 'many' }, CHAT_USAGE)).toBeNull();
	});

	it('reads money strings as numbers and as the exact text, keeps the currency, drops amounts it cannot read', () => {
		expect(
			normalizeCost(
				{ currency: 'USD', input_cost: '0', output_cost: '0.25', total_cost: '0.25' },
				MONEY,
			),
		).toEqual({
			currency: 'USD',
			input: 0,
			output: 0.25,
			total: 0.25,
			inputExact: '0',
			outputExact: '0.25',
			totalExact: '0.25',
			precision: 2,
		});
		expect(normalizeCost({ currency: '', total_cost: 'n/a', output_cost: 2 }, MONEY)).toEqual({
			currency: null,
			input: null,
			output: 2,
			total: null,
			inputExact: null,
			outputExact: '2',
			totalExact: null,
			precision: 0,
		});
		expect(normalizeCost({ currency: 'USD', total_cost: '' }, MONEY)).toBeNull();
		expect(normalizeCost({ currency: 'USD', total_cost: '0x10' }, MONEY)).toBeNull();
		expect(normalizeCost('0.25', MONEY)).toBeNull();
	});

	it('keeps the text the gateway wrote (only trimmed) and the most decimals it wrote', () => {
		expect(
			normalizeCost(
				{
					currency: 'USD',
					input_cost: ' 0.0000001 ',
					output_cost: '+0.12345670',
					total_cost: '0.12345680',
				},
				MONEY,
			),
		).toEqual({
			currency: 'USD',
			input: 1e-7,
			output: 0.1234567,
			total: 0.1234568,
			inputExact: '0.0000001',
			outputExact: '+0.12345670',
			totalExact: '0.12345680',
			precision: 8,
		});
		// Exponents count the decimals they stand for; a JSON number is written out in full.
		expect(
			normalizeCost({ currency: 'CNY', input_cost: 1e-7, total_cost: '1.5E-3' }, MONEY),
		).toMatchObject({ inputExact: '0.0000001', totalExact: '1.5E-3', total: 0.0015, precision: 7 });
		// Twenty significant digits survive in the text, not in the number.
		expect(
			normalizeCost({ currency: 'USD', total_cost: '12345678901.234567891' }, MONEY),
		).toMatchObject({
			total: 12345678901.234568,
			totalExact: '12345678901.234567891',
			precision: 9,
		});
	});
});
