import { z } from 'zod';

import type { BusinessFailureCheck } from '../gateway/transport';
import { isRecord } from '../items/values';
import { answerRule } from './answerRule';

/**
 * What a success of each text API carries, as the spec's resource tables say: a chat
 * completion has `choices` (one per candidate, `n` ≥ 1, each with its `message`), a response
 * object has `output` items (an `incomplete` one may have none). An HTTP 200 answer without
 * them (an `{"error": {...}}` body, a response whose status is `failed`, a stream that ended
 * with nothing in it) is no answer: handed on, it became an empty answer and an agent's turn
 * "succeeded". It is a failure, in the gateway's own words (answerRule.ts, the rule every
 * endpoint's answers are held to). One rule per API, for every caller: the transport holds
 * plain answers to it (textApis.ts passes it with every text request), the stream aggregators
 * (sse.ts) streamed answers and whole ones sent instead of a stream. Fields a success may
 * still lack (id, model, usage) are not asked for: the upstream notes say missing optional
 * fields must be tolerated.
 */

const jsonObject = z.object({}).passthrough();

const chatCompletionSuccess = z.object({
	choices: z.array(z.object({ message: jsonObject }).passthrough()).min(1),
});

const responseSuccess = z
	.object({ output: z.array(jsonObject), status: z.unknown() })
	.refine(({ output, status }) => {
		const word = String(status).toLowerCase();
		// An `incomplete` response was cut short (its `incomplete_details` say why) and may hold
		// nothing yet; `failed` is the responses protocol's word for a response without an answer.
		return word !== 'failed' && (output.length > 0 || word === 'incomplete');
	});

/** POST /v1/chat/completions: a success has at least one choice with its message. */
export const chatCompletionFailure: BusinessFailureCheck = answerRule(
	chatCompletionSuccess,
	() => 'The gateway answered without an answer: the chat completion has no "choices"',
);

/** POST /v1/responses: a success has `output` items (or is `incomplete`) and did not fail. */
export const responseFailure: BusinessFailureCheck = answerRule(responseSuccess, (body) =>
	isRecord(body) && String(body.status).toLowerCase() === 'failed'
		? 'The gateway answered that the response failed, without saying why'
		: 'The gateway answered without an answer: the response has no "output"',
);
