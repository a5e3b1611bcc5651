import type { z } from 'zod';

import type { BusinessFailure, BusinessFailureCheck } from '../gateway/transport';
import { gatewayErrorMessage } from '../gateway/gatewayError';
import { isRecord } from '../items/values';

/**
 * The one rule every answer the transport hands on is held to (issue 39): an HTTP 200 answer
 * is a success only when it carries what the spec says a success of its endpoint carries (a
 * chat completion its choices, an image edit its images, a create answer its task id, a task
 * query its record). Anything else (an `{"error": {...}}` body, an empty object) is a failure
 * in the gateway's own words, with its code when it gave one; handed on, it became an empty
 * answer and a successful run. Each endpoint's module says what its success carries and
 * passes the rule with its requests (`businessFailure`); fields a success may still lack are
 * not asked for, as the upstream notes say missing optional fields must be tolerated.
 */

/** Our code for a failure the gateway gave no code of its own for. */
export const NO_ANSWER_CODE = 'NO_ANSWER';

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

export interface AnswerRuleOptions {
	/**
	 * The answer's own `error` member is part of a success (a task record's: the reason its
	 * task failed), not the gateway saying the request failed. By default an `error` beside
	 * an answer fails it.
	 */
	errorBelongsToAnswer?: boolean;
}

/**
 * The check for one endpoint: `success` is what a success of it carries, `whatIsMissing` the
 * message when the gateway said nothing itself.
 */
export function answerRule(
	success: z.ZodTypeAny,
	whatIsMissing: (body: unknown) => string,
	{ errorBelongsToAnswer = false }: AnswerRuleOptions = {},
): BusinessFailureCheck {
	return (body): BusinessFailure | undefined => {
		const error = isRecord(body) ? body.error : undefined;
		const gatewaySaysFailed = !errorBelongsToAnswer && error !== undefined && error !== null;
		if (!gatewaySaysFailed && success.safeParse(body).success) return undefined;
		return { code: failureCode(body), message: gatewayErrorMessage(body) ?? whatIsMissing(body) };
	};
}

/**
 * The first failure any of `checks` finds: an envelope's business code (a family's `code`)
 * first, then the shape of its success.
 */
export function firstFailure(...checks: BusinessFailureCheck[]): BusinessFailureCheck {
	return (body) => {
		for (const check of checks) {
			const failure = check(body);
			if (failure) return failure;
		}
		return undefined;
	};
}
