import { json, type Reply } from './reply';
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
	return openAiError(400, issue.message, 'invalid_request_error', issue.param);
}

export function openAiNotFound(message: string): Reply {
	return openAiError(404, message, 'invalid_request_error', null, 'not_found');
}
