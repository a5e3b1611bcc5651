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

	it('reads money strings as numbers, keeps the currency, and drops amounts it cannot read', () => {
		expect(
			normalizeCost(
				{ currency: 'USD', input_cost: '0', output_cost: '0.25', total_cost: '0.25' },
				MONEY,
			),
		).toEqual({ currency: 'USD', input: 0, output: 0.25, total: 0.25 });
		expect(normalizeCost({ currency: '', total_cost: 'n/a', output_cost: 2 }, MONEY)).toEqual({
			currency: null,
			input: null,
			output: 2,
			total: null,
		});
		expect(normalizeCost({ currency: 'USD', total_cost: '' }, MONEY)).toBeNull();
		expect(normalizeCost('0.25', MONEY)).toBeNull();
	});
});
