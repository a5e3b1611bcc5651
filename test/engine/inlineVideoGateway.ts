import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';

/**
 * A tiny gateway that answers a long-running operation query with videos inline as base64,
 * generated and written in pieces, so answers of any size (larger than one JavaScript string
 * too) can be served without being held. Used by the engine tests and `npm run bench:memory`.
 */

export interface InlineVideoSpec {
	bytes: number;
	mimeType?: string;
	/** Writes `/` as `\/` in the base64 text, as some JSON encoders do. */
	escapeSlashes?: boolean;
}

/** The deterministic bytes of a video: the same for the server and for the check. */
export function videoBytes(length: number, seed = 1): Buffer {
	const bytes = Buffer.alloc(length);
	let state = seed * 2654435761;
	for (let index = 0; index < length; index++) {
		state = (state * 1103515245 + 12345) >>> 0;
		bytes[index] = state >>> 24;
	}
	return bytes;
}

/** 3 × 256 KiB of video per write: base64 of whole 3-byte groups, so the pieces join up. */
const PIECE_BYTES = 3 * 256 * 1024;

export interface InlineVideoGateway {
	baseUrl: string;
	apiKey: string;
	/** What the next operation query answers with. */
	serve(videos: InlineVideoSpec[]): void;
	close(): Promise<void>;
}

export async function startInlineVideoGateway(): Promise<InlineVideoGateway> {
	let videos: InlineVideoSpec[] = [];
	const apiKey = 'sk-inline-video-gateway';
	const server: Server = createServer((request, response) => {
		void (async () => {
			const match = /^\/v1\/models\/([^/]+)\/operations\/([^/?]+)/.exec(request.url ?? '');
			if (request.headers.authorization !== `Bearer ${apiKey}` || !match) {
				response.writeHead(match ? 401 : 404, { 'content-type': 'application/json' });
				response.end(JSON.stringify({ error: { message: match ? 'bad key' : 'not found' } }));
				return;
			}
			response.writeHead(200, { 'content-type': 'application/json' });
			const write = async (text: string) => {
				if (!response.write(text)) await new Promise((resolve) => response.once('drain', resolve));
			};
			await write(
				`{"name":"models/${match[1]}/operations/${match[2]}","done":true,"response":{"videos":[`,
			);
			for (const [index, video] of videos.entries()) {
				await write(`${index === 0 ? '' : ','}{"bytesBase64Encoded":"`);
				const seed = index + 1;
				const bytes = videoBytes(Math.min(video.bytes, PIECE_BYTES), seed);
				for (let sent = 0; sent < video.bytes; sent += PIECE_BYTES) {
					// Large videos repeat their first piece: generated once, never held whole.
					const piece = bytes.subarray(0, Math.min(PIECE_BYTES, video.bytes - sent));
					const base64 = piece.toString('base64');
					await write(video.escapeSlashes ? base64.replace(/\//g, '\\/') : base64);
				}
				await write(`","mimeType":"${video.mimeType ?? 'video/mp4'}"}`);
			}
			response.end(']}}');
		})();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		apiKey,
		serve: (next) => {
			videos = next;
		},
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

/** The bytes a served video has (its first piece repeated), for checks on small videos. */
export function servedVideo(video: InlineVideoSpec, index: number): Buffer {
	const piece = videoBytes(Math.min(video.bytes, PIECE_BYTES), index + 1);
	const parts: Buffer[] = [];
	for (let sent = 0; sent < video.bytes; sent += PIECE_BYTES)
		parts.push(piece.subarray(0, Math.min(PIECE_BYTES, video.bytes - sent)));
	return Buffer.concat(parts);
}
