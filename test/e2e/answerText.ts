/**
 * The text a gateway answer carried, read from the simulator's record of what it sent (JSON or
 * server-sent events), so a node's output can be compared with it byte for byte.
 */
import type { RecordedRequest } from '../simulator';

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function eventPayloads(stream: string): Json[] {
	return stream
		.split(/\r?\n/)
		.filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
		.map((line) => JSON.parse(line.slice('data: '.length)) as Json);
}

function responseOutputText(response: unknown): string {
	return list(isRecord(response) ? response.output : undefined)
		.filter(isRecord)
		.filter((item) => item.type === 'message')
		.flatMap((item) => list(item.content))
		.filter(isRecord)
		.map((part) => (part.type === 'output_text' ? String(part.text) : ''))
		.join('');
}

/** The answer text of a chat completion or a response, streamed or not, as the gateway sent it. */
export function sentAnswerText(request: RecordedRequest): string {
	const answer = request.answer;
	if (answer === undefined)
		throw new Error(`${request.method} ${request.path}: no answer recorded`);
	const streamed = isRecord(request.body) && request.body.stream === true;
	const chat = request.path.endsWith('/chat/completions');
	if (!streamed) {
		const body = JSON.parse(answer) as Json;
		if (!chat) return responseOutputText(body);
		const [choice] = list(body.choices).filter(isRecord);
		return String((isRecord(choice?.message) && choice.message.content) ?? '');
	}
	const events = eventPayloads(answer);
	if (chat) {
		return events
			.flatMap((event) => list(event.choices).filter(isRecord))
			.map((choice) => (isRecord(choice.delta) ? String(choice.delta.content ?? '') : ''))
			.join('');
	}
	return events
		.filter((event) => event.type === 'response.output_text.delta')
		.map((event) => String(event.delta))
		.join('');
}
