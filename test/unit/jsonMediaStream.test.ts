import {
	readJsonWithMedia,
	storedMediaOf,
	type StoredMedia,
} from '../../nodes/shared/streams/jsonMediaStream';

/** Stores into memory, so a test can compare the bytes. */
async function collect(bytes: AsyncIterable<Buffer>): Promise<Buffer> {
	const parts: Buffer[] = [];
	for await (const part of bytes) parts.push(part);
	return Buffer.concat(parts);
}

async function* chunks(text: Buffer, cuts: number[]): AsyncGenerator<Buffer> {
	let from = 0;
	for (const cut of cuts) {
		yield text.subarray(from, cut);
		from = cut;
	}
	yield text.subarray(from);
}

const read = (source: AsyncIterable<Buffer>, keys = ['bytesBase64Encoded', 'b64_json']) =>
	readJsonWithMedia(source, { keys, store: collect });

/** The parsed JSON with every marker replaced by its stored bytes as base64, for comparison. */
function resolved(value: unknown, media: Array<StoredMedia<Buffer>>): unknown {
	const stored = storedMediaOf(value, media);
	if (stored) return { key: stored.key, base64: stored.stored.toString('base64') };
	if (Array.isArray(value)) return value.map((entry) => resolved(entry, media));
	if (value && typeof value === 'object')
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [key, resolved(entry, media)]),
		);
	return value;
}

const videoA = Buffer.from(Array.from({ length: 40 }, (_, index) => (index * 37) % 256));
const videoB = Buffer.from('second vidéo bytes ✓');
const answer = Buffer.from(
	JSON.stringify({
		name: 'models/m/operations/op-1',
		done: true,
		note: 'a "quoted" \\ text with bytesBase64Encoded inside, ünïcödé',
		response: {
			videos: [
				{ bytesBase64Encoded: videoA.toString('base64'), mimeType: 'video/mp4' },
				{ mimeType: 'video/webm', bytesBase64Encoded: videoB.toString('base64') },
			],
			other: { key: 'bytesBase64Encoded' },
		},
	}),
);
const expected = {
	name: 'models/m/operations/op-1',
	done: true,
	note: 'a "quoted" \\ text with bytesBase64Encoded inside, ünïcödé',
	response: {
		videos: [
			{
				bytesBase64Encoded: { key: 'bytesBase64Encoded', base64: videoA.toString('base64') },
				mimeType: 'video/mp4',
			},
			{
				mimeType: 'video/webm',
				bytesBase64Encoded: { key: 'bytesBase64Encoded', base64: videoB.toString('base64') },
			},
		],
		other: { key: 'bytesBase64Encoded' },
	},
};

describe('readJsonWithMedia', () => {
	it('gives the same JSON and bytes for every split of the answer into two and three chunks', async () => {
		for (let first = 0; first <= answer.length; first++) {
			const result = await read(chunks(answer, [first]));
			expect(resolved(result.body, result.media)).toEqual(expected);
		}
		for (let first = 0; first <= answer.length; first += 7) {
			for (let second = first; second <= answer.length; second += 5) {
				const result = await read(chunks(answer, [first, second]));
				expect(resolved(result.body, result.media)).toEqual(expected);
			}
		}
	});

	it('reads byte by byte and counts base64 characters and decoded bytes', async () => {
		const cuts = Array.from({ length: answer.length - 1 }, (_, index) => index + 1);
		const result = await read(chunks(answer, cuts));
		expect(resolved(result.body, result.media)).toEqual(expected);
		expect(result.media.map(({ base64Length, byteLength }) => [base64Length, byteLength])).toEqual([
			[videoA.toString('base64').length, videoA.length],
			[videoB.toString('base64').length, videoB.length],
		]);
	});

	it('resolves escapes inside a media value: \\/, \\u escapes and escaped line breaks', async () => {
		const bytes = Buffer.from(Array.from({ length: 300 }, (_, index) => (index * 97 + 13) % 256));
		const base64 = bytes.toString('base64');
		expect(base64).toContain('/');
		const escaped = base64
			.replace(/\//g, '\\/')
			.replace(/=/g, '\\u003d')
			.replace(/(.{76})/g, '$1\\n');
		const text = Buffer.from(`{"data":[{"b64_json":"${escaped}","revised_prompt":"x"}]}`);
		for (let first = 0; first <= text.length; first += 3) {
			const result = await read(chunks(text, [first]));
			expect(resolved(result.body, result.media)).toEqual({
				data: [{ b64_json: { key: 'b64_json', base64 }, revised_prompt: 'x' }],
			});
		}
	});

	it('leaves a media key that holds no string, and keys it was not asked for, as they are', async () => {
		const text = Buffer.from(
			'{"bytesBase64Encoded":null,"b64_json":"QUJD","x":{"bytesBase64Encoded":7}}',
		);
		const result = await read(chunks(text, [10]), ['bytesBase64Encoded']);
		expect(result.body).toEqual({
			bytesBase64Encoded: null,
			b64_json: 'QUJD',
			x: { bytesBase64Encoded: 7 },
		});
		expect(result.media).toEqual([]);
	});

	it('refuses an answer that is not JSON, or ends inside a media value', async () => {
		await expect(read(chunks(Buffer.from('<html>oops</html>'), []))).rejects.toThrow(SyntaxError);
		await expect(read(chunks(Buffer.from('{"b64_json":"QUJD'), []))).rejects.toThrow(
			'The answer ended inside a base64 value',
		);
	});

	it('passes an answer larger than one JavaScript string through without holding it', async () => {
		// 640 MiB of base64 (more than V8's ~512 MiB string limit), generated and counted, never kept.
		const piece = Buffer.alloc(1024 * 1024, 'QUJD');
		const pieces = 640;
		async function* huge(): AsyncGenerator<Buffer> {
			yield Buffer.from('{"name":"op","response":{"videos":[{"bytesBase64Encoded":"');
			for (let index = 0; index < pieces; index++) yield piece;
			yield Buffer.from('","mimeType":"video/mp4"}]}}');
		}
		let stored = 0;
		const result = await readJsonWithMedia(huge(), {
			keys: ['bytesBase64Encoded'],
			store: async (bytes) => {
				for await (const part of bytes) stored += part.length;
				return 'stored';
			},
		});
		expect(stored).toBe((piece.length * pieces * 3) / 4);
		const videos = (result.body as { response: { videos: Array<Record<string, unknown>> } })
			.response.videos;
		expect(storedMediaOf(videos[0].bytesBase64Encoded, result.media)).toEqual({
			key: 'bytesBase64Encoded',
			stored: 'stored',
			base64Length: piece.length * pieces,
			byteLength: stored,
		});
		expect(videos[0].mimeType).toBe('video/mp4');
	}, 60_000);

	it('stops reading when the store fails', async () => {
		const text = Buffer.from(`{"b64_json":"${Buffer.alloc(300_000).toString('base64')}"}`);
		await expect(
			readJsonWithMedia(chunks(text, [100, 200_000]), {
				keys: ['b64_json'],
				store: async () => {
					throw new Error('disk full');
				},
			}),
		).rejects.toThrow('disk full');
	});
});
