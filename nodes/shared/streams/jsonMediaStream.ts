/**
 * Reads a JSON answer that carries media inline as base64 (`bytesBase64Encoded`, `b64_json`)
 * without ever holding the media whole: the JSON text passes through, except the string
 * values of the named keys, which are decoded as they arrive and handed on as a byte stream
 * (to n8n's binary storage). In the parsed JSON each such value is a marker string that
 * `storedMediaOf` turns back into what the store returned.
 *
 * A small lexer for this one job: it knows strings, escapes and `"key":` pairs, nothing
 * else; JSON.parse checks the (now small) rest. Quotes and backslashes are ASCII and never
 * occur inside a UTF-8 multi-byte sequence, so it works on raw bytes.
 */

export interface StoredMedia<T> {
	/** The key the value stood under. */
	key: string;
	/** What `store` returned for the bytes. */
	stored: T;
	/** Base64 characters read (padding included). */
	base64Length: number;
	/** Decoded bytes. */
	byteLength: number;
}

export interface MediaStreamOptions<T> {
	/** Keys whose string values are base64 media. */
	keys: readonly string[];
	/**
	 * Stores one media value, reading `bytes` to its end. When the answer itself is a Node.js
	 * stream, `bytes` is one too (n8n's binary storage wants a Readable).
	 */
	store: (bytes: AsyncIterable<Buffer>, key: string) => Promise<T>;
}

export interface JsonWithMedia<T> {
	body: unknown;
	media: Array<StoredMedia<T>>;
}

const MARKER_PREFIX = '\u0000stored-media:';

/** The stored media a marker string stands for, or undefined when the value is no marker. */
export function storedMediaOf<T>(
	value: unknown,
	media: ReadonlyArray<StoredMedia<T>>,
): StoredMedia<T> | undefined {
	if (typeof value !== 'string' || !value.startsWith(MARKER_PREFIX)) return undefined;
	return media[Number(value.slice(MARKER_PREFIX.length))];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
/** A key longer than this cannot be one of ours; its text is not collected. */
const MAX_KEY_LENGTH = 64;
/** Base64 decoded in runs of this many characters (a multiple of 4). */
const DECODE_RUN = 64 * 1024;

function isWhitespace(byte: number): boolean {
	return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** How many decoded bytes may wait for the store before the reading pauses. */
const HIGH_WATER_BYTES = 1024 * 1024;

type StreamFrom = (source: AsyncIterable<Buffer>) => AsyncIterable<Buffer>;

/**
 * Node's `Readable.from`, taken from the answer's own stream (an IncomingMessage inherits
 * it): node code may not import Node's `stream` module, and n8n's binary storage needs a
 * Readable. Plain async iterables (tests) are handed on as they are.
 */
function streamFromOf(source: object): StreamFrom {
	const from = (source.constructor as { from?: unknown } | undefined)?.from;
	return typeof from === 'function'
		? (bytes) => (from as StreamFrom).call(source.constructor, bytes)
		: (bytes) => bytes;
}

/**
 * One media value being decoded: base64 text in, bytes out to the store, with backpressure
 * (the reading waits while the store is more than HIGH_WATER_BYTES behind).
 */
class MediaSink<T> {
	readonly stored: Promise<T>;
	private pending = '';
	base64Length = 0;
	byteLength = 0;
	private readonly queue: Buffer[] = [];
	private queuedBytes = 0;
	private ended = false;
	private failure: { error: unknown } | undefined;
	private wake: (() => void) | undefined;

	constructor(key: string, store: MediaStreamOptions<T>['store'], streamFrom: StreamFrom) {
		this.stored = store(streamFrom(this.bytes()), key);
		// Kept for `finish`; noted here so a store that fails early stops the reading.
		this.stored.catch((error: unknown) => {
			this.failure = { error };
			this.signal();
		});
	}

	private signal(): void {
		const wake = this.wake;
		this.wake = undefined;
		wake?.();
	}

	private waitForSignal(): Promise<void> {
		return new Promise((resolve) => {
			this.wake = resolve;
		});
	}

	private async *bytes(): AsyncGenerator<Buffer> {
		for (;;) {
			const next = this.queue.shift();
			if (next) {
				this.queuedBytes -= next.length;
				this.signal();
				yield next;
			} else if (this.ended) {
				return;
			} else {
				await this.waitForSignal();
			}
		}
	}

	/** Adds base64 characters (escapes already resolved). */
	async write(characters: string): Promise<void> {
		this.base64Length += characters.length;
		this.pending += characters;
		if (this.pending.length >= DECODE_RUN) await this.flush(false);
	}

	private async flush(final: boolean): Promise<void> {
		const usable = final ? this.pending.length : this.pending.length - (this.pending.length % 4);
		if (usable === 0) return;
		const bytes = Buffer.from(this.pending.slice(0, usable), 'base64');
		this.pending = this.pending.slice(usable);
		this.byteLength += bytes.length;
		this.queue.push(bytes);
		this.queuedBytes += bytes.length;
		this.signal();
		while (this.queuedBytes > HIGH_WATER_BYTES && !this.failure) await this.waitForSignal();
		if (this.failure) throw this.failure.error;
	}

	async finish(): Promise<T> {
		await this.flush(true);
		this.ended = true;
		this.signal();
		return await this.stored;
	}

	/** The answer broke off: the store sees the end of its bytes and its result is not used. */
	abandon(): void {
		this.ended = true;
		this.signal();
		this.stored.catch(() => undefined);
	}
}

type Escape = { kind: 'none' } | { kind: 'start' } | { kind: 'unicode'; digits: string };

/**
 * Reads `source` (the answer's bytes) to its end and returns the parsed JSON with a marker in
 * place of every media value, and the stored media in the order they appeared.
 */
export async function readJsonWithMedia<T>(
	source: AsyncIterable<Buffer | Uint8Array | string>,
	options: MediaStreamOptions<T>,
): Promise<JsonWithMedia<T>> {
	const keys = new Set(options.keys);
	const text: Buffer[] = [];
	const media: Array<StoredMedia<T>> = [];
	let inString = false;
	let escape: Escape = { kind: 'none' };
	// The text of the string being read (while it may still be a key), and the last string closed.
	let keyText: string | undefined;
	let lastString: string | undefined;
	let currentKey: string | undefined;
	let sink: MediaSink<T> | undefined;

	const streamFrom = streamFromOf(source);
	const startMedia = (key: string) => {
		sink = new MediaSink(key, options.store, streamFrom);
		text.push(Buffer.from(JSON.stringify(`${MARKER_PREFIX}${media.length}`)));
		media.push({ key, stored: undefined as T, base64Length: 0, byteLength: 0 });
	};
	const endMedia = async (current: MediaSink<T>) => {
		const entry = media[media.length - 1];
		entry.stored = await current.finish();
		entry.base64Length = current.base64Length;
		entry.byteLength = current.byteLength;
	};

	try {
		for await (const piece of source) {
			const chunk =
				typeof piece === 'string'
					? Buffer.from(piece)
					: Buffer.isBuffer(piece)
						? piece
						: Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
			let textFrom = 0;
			for (let index = 0; index < chunk.length; index++) {
				const byte = chunk[index];
				if (sink) {
					// Inside a media value: copy runs of plain base64, resolve escapes, stop at the quote.
					if (escape.kind === 'none' && byte !== QUOTE && byte !== BACKSLASH) {
						const end = nextSpecial(chunk, index);
						await sink.write(chunk.toString('latin1', index, end));
						index = end - 1;
						continue;
					}
					const character = mediaEscape(byte, escape);
					escape = character.escape;
					if (character.text) await sink.write(character.text);
					if (character.closed) {
						const current = sink;
						sink = undefined;
						inString = false;
						currentKey = undefined;
						await endMedia(current);
						textFrom = index + 1; // the marker pushed at the start has its own quotes
					}
					continue;
				}
				if (inString) {
					if (escape.kind === 'start') {
						escape = { kind: 'none' };
						// Keys with escapes are not ours: stop collecting.
						keyText = undefined;
					} else if (byte === BACKSLASH) {
						escape = { kind: 'start' };
					} else if (byte === QUOTE) {
						inString = false;
						lastString = keyText;
						keyText = undefined;
					} else if (keyText !== undefined) {
						keyText =
							keyText.length < MAX_KEY_LENGTH ? keyText + String.fromCharCode(byte) : undefined;
					}
					continue;
				}
				if (byte === QUOTE) {
					if (currentKey !== undefined && keys.has(currentKey)) {
						// A media value starts: the JSON text gets a marker instead.
						if (index > textFrom) text.push(chunk.subarray(textFrom, index));
						startMedia(currentKey);
						inString = true;
						continue;
					}
					inString = true;
					keyText = '';
					currentKey = undefined;
					continue;
				}
				if (byte === COLON) {
					currentKey = lastString;
					lastString = undefined;
				} else if (!isWhitespace(byte)) {
					currentKey = undefined;
					lastString = undefined;
				}
			}
			// Inside a media value the rest of the chunk is media, already handed on.
			if (!sink && textFrom < chunk.length) text.push(chunk.subarray(textFrom));
		}
	} finally {
		sink?.abandon();
	}
	if (sink) throw new SyntaxError('The answer ended inside a base64 value');
	const whole = Buffer.concat(text).toString('utf8');
	return { body: JSON.parse(whole) as unknown, media };
}

/** Where the next quote or backslash is (or the chunk's end). */
function nextSpecial(chunk: Buffer, from: number): number {
	const quote = chunk.indexOf(QUOTE, from);
	const backslash = chunk.indexOf(BACKSLASH, from);
	const end = chunk.length;
	return Math.min(quote === -1 ? end : quote, backslash === -1 ? end : backslash);
}

/** One byte inside a media value that is not plain base64: an escape, or the closing quote. */
function mediaEscape(
	byte: number,
	escape: Escape,
): { escape: Escape; text?: string; closed?: boolean } {
	if (escape.kind === 'unicode') {
		const digits = escape.digits + String.fromCharCode(byte);
		if (digits.length < 4) return { escape: { kind: 'unicode', digits } };
		const character = String.fromCharCode(parseInt(digits, 16));
		// `\u002f` is `/`, `\u003d` is `=`; escaped line breaks are not part of the data.
		return { escape: { kind: 'none' }, text: /[A-Za-z0-9+/=_-]/.test(character) ? character : '' };
	}
	if (escape.kind === 'start') {
		if (byte === 0x75) return { escape: { kind: 'unicode', digits: '' } };
		const character = String.fromCharCode(byte);
		// `\/` is `/`; `\n`, `\r`, `\t` are line breaks some encoders put into base64.
		return { escape: { kind: 'none' }, text: character === '/' ? '/' : '' };
	}
	if (byte === BACKSLASH) return { escape: { kind: 'start' } };
	// Only the quote is left (plain base64 is copied by the caller).
	return { escape: { kind: 'none' }, closed: true };
}
