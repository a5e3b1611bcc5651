import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { httpAnswerOf, type HttpAnswer } from '../gateway/gatewayError';

/**
 * What a failed status query means for the task asked about, and for the run. Only the gateway's
 * own word fails a task: a refusal in its error envelope (an unknown task, a bad reference). A
 * refusal by something in front of it (a proxy's 404 page during a deploy, a 502 with an empty
 * body, HTML from a web server at a wrong Base URL path) says nothing about the task: it is
 * waited out like a 5xx (issue 54).
 */
export type QueryFailure =
	/** A 429 the transport did not wait out: the whole batch pauses. */
	| { kind: 'rateLimited' }
	/**
	 * The credential or its URL (a refused key, a redirect not followed): every task alike.
	 * `httpCode` is the answer's status (401, 403, 3xx).
	 */
	| { kind: 'setup'; httpCode: string }
	/** The gateway refused this task's query in its own words (4xx): asking again will not help. */
	| { kind: 'refused' }
	/** Refused by something that is not the gateway: a transient fault, checked again later. */
	| { kind: 'notFromGateway'; answer: HttpAnswer }
	/** 5xx in the gateway's words, timeouts, dropped connections, errors inside HTTP 200. */
	| { kind: 'transient' };

export function classifyQueryFailure(error: unknown): QueryFailure {
	const httpCode = error instanceof NodeApiError ? String(error.httpCode ?? '') : '';
	if (httpCode === '429') return { kind: 'rateLimited' };
	if (httpCode === '401' || httpCode === '403' || /^3\d\d$/.test(httpCode)) {
		return { kind: 'setup', httpCode };
	}
	const answer = httpAnswerOf(error);
	if (answer && !answer.fromGateway) return { kind: 'notFromGateway', answer };
	if (answer && answer.statusCode >= 400 && answer.statusCode < 500) return { kind: 'refused' };
	return { kind: 'transient' };
}

const BODY_WORDS: Record<HttpAnswer['body'], string> = {
	json: "JSON that is not the gateway's error",
	html: 'an HTML page',
	text: 'plain text',
	empty: 'an empty body',
};

/** "HTTP 404, text/html, an HTML page": what answered, for people. */
export function describeAnswer(answer: HttpAnswer): string {
	return `HTTP ${answer.statusCode}, ${answer.contentType || 'no content type'}, ${BODY_WORDS[answer.body]}`;
}

/** Why a task was not checked this time, as its item says it (`lastCheckError`). */
export function uncheckedReason(error: unknown, failure: QueryFailure): string {
	if (failure.kind === 'notFromGateway') {
		return `Not the gateway's answer (${describeAnswer(failure.answer)}), from ${failure.answer.baseUrl}`;
	}
	const message = error instanceof Error ? error.message : String(error);
	// The gateway's words for a refused key ("Invalid API key") do not say it was the credential.
	if (failure.kind === 'setup' && (failure.httpCode === '401' || failure.httpCode === '403')) {
		return `The credential was refused (HTTP ${failure.httpCode}): ${message}`;
	}
	return message;
}

/** Fewest refusals alike, and every query of the run, before they are taken for a set-up fault. */
export const SETUP_FAULT_MIN_QUERIES = 3;

const sameAnswer = (a: HttpAnswer, b: HttpAnswer) =>
	a.statusCode === b.statusCode && a.contentType === b.contentType && a.body === b.body;

/**
 * Watches one node run's status queries for a Base URL that does not reach the gateway: when
 * every query so far (at least SETUP_FAULT_MIN_QUERIES, or one per task when the run has fewer)
 * was refused alike by something that is not the gateway, the fault is the set-up's, not the
 * tasks'. One answer of the gateway (a record, its own error, a 429), a query that got no answer
 * (a dropped connection: nothing is known) or an answer unlike the others ends the watch for the
 * run: the gateway is there, and what is refused is waited out.
 * So does a task the gateway answered before (a loop's later pass, a task handed on from an
 * earlier wait): a whole pass refused in a proxy's bad minute must not stop a loop.
 */
export class SetupFaultWatch {
	private queries = 0;
	private first: HttpAnswer | undefined;
	private ended: boolean;

	constructor(
		private readonly taskCount: number,
		gatewayAnsweredBefore: boolean,
	) {
		this.ended = gatewayAnsweredBefore;
	}

	/** A query that was not refused by something other than the gateway. */
	otherOutcome(): void {
		this.queries++;
		this.ended = true;
	}

	/** A refusal not from the gateway; the answer every query got, once that is a set-up fault. */
	refused(answer: HttpAnswer): HttpAnswer | undefined {
		this.queries++;
		if (this.ended) return undefined;
		this.first ??= answer;
		if (!sameAnswer(this.first, answer)) {
			this.ended = true;
			return undefined;
		}
		return this.queries >= Math.min(SETUP_FAULT_MIN_QUERIES, this.taskCount)
			? this.first
			: undefined;
	}

	get queryCount(): number {
		return this.queries;
	}
}

/** The set-up error of a run whose every query was refused alike: it names the Base URL only. */
export function setupFaultError(
	node: INode,
	answer: HttpAnswer,
	queries: number,
): NodeOperationError {
	return new NodeOperationError(
		node,
		`Every status query was refused at ${answer.baseUrl} by something that is not the gateway (${describeAnswer(answer)})`,
		{
			description: `${queries} of ${queries} queries got that answer, none the gateway's own. Check the credential's Base URL (and any proxy in front of the gateway). No task was marked failed and nothing was created: run the node again once the Base URL reaches the gateway.`,
		},
	);
}
