import type { Message, MessageContent, Tool } from '@n8n/ai-node-sdk';
import type { IDataObject } from 'n8n-workflow';

/**
 * What both gateway APIs need from the SDK's messages and tools, read once: the text of a
 * message, its tool calls and tool results, and each tool as name, description and JSON schema.
 */

export interface ToolCallRequest {
	callId: string;
	name: string;
	/** The arguments as JSON text, as the model wrote them. */
	arguments: string;
}

export interface ToolResultMessage {
	callId: string;
	output: string;
}

export interface FunctionDefinition {
	name: string;
	description?: string;
	parameters: IDataObject;
}

export function textOf(message: Message): string {
	return message.content
		.filter((part): part is Extract<MessageContent, { type: 'text' }> => part.type === 'text')
		.map((part) => part.text)
		.join('');
}

/** A tool call's arguments as sent on: no arguments at all is the empty object. */
export function argumentsText(text: string): string {
	return text.trim() === '' ? '{}' : text;
}

export function toolCallsOf(message: Message): ToolCallRequest[] {
	return message.content
		.filter(
			(part): part is Extract<MessageContent, { type: 'tool-call' }> => part.type === 'tool-call',
		)
		.map((part, index) => ({
			callId: part.toolCallId ?? `call_${index}`,
			name: part.toolName,
			arguments: argumentsText(part.input),
		}));
}

export function toolResultsOf(message: Message): ToolResultMessage[] {
	return message.content
		.filter(
			(part): part is Extract<MessageContent, { type: 'tool-result' }> =>
				part.type === 'tool-result',
		)
		.map((part) => ({
			callId: part.toolCallId,
			output: typeof part.result === 'string' ? part.result : JSON.stringify(part.result ?? null),
		}));
}

/** Function tools with their parameters as JSON schema (n8n's tools describe them with zod). */
export function functionDefinitions(
	tools: Tool[],
	jsonSchemaOf: (tool: Extract<Tool, { type: 'function' }>) => unknown,
): FunctionDefinition[] {
	return tools
		.filter((tool): tool is Extract<Tool, { type: 'function' }> => tool.type === 'function')
		.map((tool) => ({
			name: tool.name,
			...(tool.description ? { description: tool.description } : {}),
			parameters: (jsonSchemaOf(tool) ?? { type: 'object', properties: {} }) as IDataObject,
		}));
}

/** Arguments that are not a JSON object; undefined when they are fine. */
export function argumentsProblem(call: ToolCallRequest): string | undefined {
	try {
		const parsed = JSON.parse(call.arguments) as unknown;
		if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return undefined;
		return 'they are JSON but not an object';
	} catch (error) {
		return (error as Error).message;
	}
}
