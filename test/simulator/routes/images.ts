import { isImageUrlOrBase64 } from '../imageData';
import { openAiInvalid } from '../errors';
import { PNG_FILE } from '../files';
import { newId, newRequestId, unixSeconds } from '../ids';
import { MAGIC } from '../magic';
import { json, type Reply } from '../reply';
import type { Route } from '../router';
import type { SimState } from '../state';
import { estimateTokens } from '../text';
import {
	arrayField,
	firstIssue,
	isRecord,
	notAnObject,
	numberField,
	optionalArray,
	optionalBoolean,
	optionalNumber,
	optionalOneOf,
	requiredArray,
	requiredString,
	stringField,
	type Issue,
	type JsonObject,
} from '../validate';

const IMAGE_SIZES = ['1K', '2K', '4K'] as const;
/** metadata.usage.size per requested size, in the provider's `<width>*<height>` form. */
const PIXEL_SIZE: Record<string, string> = {
	'1K': '1024*1024',
	'2K': '2048*2048',
	'4K': '4096*4096',
};
const TOKENS_PER_INPUT_IMAGE = 256;
const TOKENS_PER_OUTPUT_IMAGE = 1024;

export function imageRoutes(state: SimState): Route[] {
	return [
		{
			host: 'base',
			methods: ['POST'],
			pattern: /^\/v1\/images\/edits$/,
			handle: ({ body }) => editImages(state, body),
		},
	];
}

function editImages(state: SimState, body: unknown): Reply {
	if (!isRecord(body)) return openAiInvalid(notAnObject());
	const issue = validateImageEdit(body);
	if (issue) return openAiInvalid(issue);

	const prompt = String(body.prompt);
	const count = numberField(body, 'n') ?? 1;
	const size = stringField(body, 'size') ?? '1K';
	const base64 = PNG_FILE.bytes.toString('base64');
	const urls = Array.from({ length: count }, () => {
		const name = `${newId('img_')}.png`;
		if (prompt.includes(MAGIC.brokenUrl)) return state.fileUrl(`missing/${name}`);
		state.files.put(name, PNG_FILE);
		return state.fileUrl(name);
	});
	const inputTokens =
		estimateTokens(prompt) + TOKENS_PER_INPUT_IMAGE * arrayField(body, 'image').length;
	const outputTokens = TOKENS_PER_OUTPUT_IMAGE * count;
	return json(200, {
		created: unixSeconds(Date.now()),
		model: body.model,
		data: urls.map((url) => ({ url, b64_json: base64, revised_prompt: prompt })),
		background: 'opaque',
		output_format: 'png',
		quality: 'high',
		size,
		usage: {
			input_tokens: inputTokens,
			input_tokens_details: {
				image_tokens: inputTokens - estimateTokens(prompt),
				text_tokens: estimateTokens(prompt),
			},
			output_tokens: outputTokens,
			total_tokens: inputTokens + outputTokens,
		},
		metadata: providerMetadata(urls, inputTokens, outputTokens, size),
	});
}

function providerMetadata(
	urls: string[],
	inputTokens: number,
	outputTokens: number,
	size: string,
): JsonObject {
	return {
		output: {
			choices: urls.map((url) => ({
				finish_reason: 'stop',
				message: { role: 'assistant', content: [{ type: 'image', image: url }] },
			})),
			finished: true,
		},
		usage: {
			image_count: urls.length,
			input_tokens: inputTokens,
			output_tokens: outputTokens,
			total_tokens: inputTokens + outputTokens,
			size: PIXEL_SIZE[size],
		},
		request_id: newRequestId(),
	};
}

function validateImageEdit(body: JsonObject): Issue | undefined {
	return firstIssue(
		requiredString(body, 'model'),
		requiredString(body, 'prompt'),
		requiredArray(body, 'image', { min: 1, items: 'string' }),
		validateImageInputs(arrayField(body, 'image')),
		optionalNumber(body, 'n', { min: 1, integer: true }),
		optionalOneOf(body, 'size', IMAGE_SIZES),
		optionalArray(body, 'bbox_list', { items: 'object' }),
		optionalBoolean(body, 'thinking_mode'),
		optionalBoolean(body, 'watermark'),
	);
}

/**
 * Each input must be an http(s) URL, or Base64 (raw or in a data: URI) that decodes to an
 * image: not a file path, a binary id or random text.
 */
function validateImageInputs(images: unknown[]): Issue | undefined {
	const badIndex = images.findIndex(
		(image) => typeof image !== 'string' || !isImageUrlOrBase64(image, { dataUri: true }),
	);
	if (badIndex < 0) return undefined;
	return {
		param: `image[${badIndex}]`,
		message: `'image[${badIndex}]' must be an http(s) URL or Base64 image data.`,
	};
}
