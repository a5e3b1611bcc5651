import { z } from 'zod';

import type { BusinessFailure, BusinessFailureCheck } from '../gateway/transport';
import { gatewayErrorMessage } from '../gateway/transport';
import { isRecord } from '../items/values';

/**
 * What a success of each text API carries, as the spec's resource tables say: a chat
 * completion has `choices` (one per candidate, `n` ≥ 1, each with its `message`), a response
 * object has `output` items (an `incomplete` one may have none). An HTTP 200 answer without
 * them (an `{"error": {...}}` body, a response whose status is `failed`, a stream that ended
 * with nothing in it) is no answer: handed on, it became an empty answer and an agent's turn
 * "succeeded". It is a failure, in the gateway's own words. One rule per API, for every
 * caller: the transport holds plain answers to it (textApis.ts passes it with every text
 * request), the stream aggregators (sse.ts) streamed answers and whole ones sent instead of a
 * stream. Fields a success may still lack (id, model, usage) are not asked for: the upstream
 * notes say missing optional fields must be tolerated.
 */

/** Our code for a failure the gateway gave no code of its own for. */
export const NO_ANSWER_CODE = 'NO_ANSWER';

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

/** The gateway's own code of a failure (`error.code`, else `error.type`), or ours. */
function failureCode(body: unknown): string {
	const error = isRecord(body) ? body.error : undefined;
	if (isRecord(error)) {
		for (const value of [error.code, error.type]) {
			if ((typeof value === 'string' && value !== '') || typeof value === 'number')
				return String(value);
		}
	}
	return NO_ANSWER_CODE;
}

function answerRule(
	success: z.ZodTypeAny,
	whatIsMissing: (body: unknown) => string,
): BusinessFailureCheck {
	return (body): BusinessFailure | undefined => {
		const error = isRecord(body) ? body.error : undefined;
		// An `error` beside an answer is still the gateway saying the request failed.
		if ((error === undefined || error === null) && success.safeParse(body).success)
			return undefined;
		return { code: failureCode(body), message: gatewayErrorMessage(body) ?? whatIsMissing(body) };
	};
}

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
