import type { IDataObject } from 'n8n-workflow';

/** Every `output_text` part of every message item of a response object, joined in order. */
export function outputTextOf(response: IDataObject): string {
	const list = (value: unknown): IDataObject[] =>
		Array.isArray(value) ? (value as IDataObject[]) : [];
	return list(response.output)
		.filter((item) => item.type === 'message')
		.flatMap((item) => list(item.content))
		.filter((part) => part.type === 'output_text' && typeof part.text === 'string')
		.map((part) => part.text as string)
		.join('');
}
