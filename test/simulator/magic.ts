/**
 * Words in a prompt (or model name) that make the simulator misbehave on purpose.
 * Matched case-sensitively, so ordinary text never triggers them by accident
 * (except the asset review URL markers, which are lower-case by nature of URLs).
 */
export const MAGIC = {
	/** Video task ends failed. */
	fail: 'FAIL',
	/** Video task reports a status value nobody lists, forever. */
	unknownStatus: 'UNKNOWN_STATUS',
	/** Create call answers with a business error (Task family S, Family A). */
	businessError: 'BUSINESS_ERROR',
	/** Family B task reports upstream status words (WAITING, PROCESSING, FINISH). */
	upstreamCase: 'UPSTREAM_CASE',
	/** Long-running operation finishes with no videos (safety-filtered). */
	safety: 'SAFETY',
	/** Image edit result URLs point to a path that 404s. */
	brokenUrl: 'BROKEN_URL',
	/** Streams: an in-stream error event, then the end. */
	streamError: 'STREAM_ERROR',
	/** Streams: end cleanly but early, without the final event / [DONE]. */
	streamTruncate: 'STREAM_TRUNCATE',
	/** Streams: destroy the connection mid-stream. */
	streamDrop: 'STREAM_DROP',
	/** Streams: CRLF line endings. */
	streamCrlf: 'STREAM_CRLF',
	/** Streams: every JSON payload spread over several `data:` lines. */
	streamMultiline: 'STREAM_MULTILINE',
	/** Asset review: this URL is rejected. */
	reviewReject: 'reject',
	/** Asset review: answer 202 processing, result by callback. */
	reviewAsync: 'async',
	/** Asset review: the whole batch fails. */
	reviewBatchFail: 'batchfail',
} as const;

/** The status word reported by UNKNOWN_STATUS tasks. */
export const UNKNOWN_STATUS_WORD = 'mystery_state';

export type StreamCut = 'error' | 'truncate' | 'drop';

export function streamCutFor(text: string): StreamCut | undefined {
	if (text.includes(MAGIC.streamError)) return 'error';
	if (text.includes(MAGIC.streamTruncate)) return 'truncate';
	if (text.includes(MAGIC.streamDrop)) return 'drop';
	return undefined;
}
