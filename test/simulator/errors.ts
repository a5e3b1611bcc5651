import { json, refused, type Reply } from './reply';
import type { Issue } from './validate';

/** OpenAI-style error body, used by chat, responses, images, generic video, Family B and C. */
export function openAiError(
	status: number,
	message: string,
	type: string,
	param: string | null = null,
	code: string | null = null,
): Reply {
	return json(status, { error: { message, type, param, code } });
}

export function openAiInvalid(issue: Issue): Reply {
	return refused('invalid-body', issue.message, 400, {
		error: {
			message: issue.message,
			type: 'invalid_request_error',
			param: issue.param,
			code: null,
		},
	});
}

export function openAiNotFound(message: string): Reply {
	return refused('unknown-id', message, 404, {
		error: { message, type: 'invalid_request_error', param: null, code: 'not_found' },
	});
}
