import { SAMPLE_MP4, SAMPLE_PNG, paddedMp4 } from './media';

export interface StoredFile {
	contentType: string;
	bytes: Buffer;
}

export const PNG_FILE: StoredFile = { contentType: 'image/png', bytes: SAMPLE_PNG };
export const MP4_FILE: StoredFile = { contentType: 'video/mp4', bytes: SAMPLE_MP4 };

let largeMp4: Buffer | undefined;

/**
 * The result video of one task for the `resultVideoBytes` option: the sample for 0, else the
 * padded file with the task's id written at the start of its `mdat` payload, so that no two
 * tasks' videos are byte-identical (a store that deduplicates equal values would otherwise
 * keep one copy for the whole batch).
 */
export function resultMp4(resultVideoBytes: number, taskId: string): StoredFile {
	if (resultVideoBytes <= 0) return MP4_FILE;
	if (largeMp4?.length !== Math.max(resultVideoBytes, SAMPLE_MP4.length))
		largeMp4 = paddedMp4(resultVideoBytes);
	const bytes = Buffer.from(largeMp4);
	// After the ftyp box (0x20 bytes) and the mdat box header (8 bytes).
	bytes.write(taskId.slice(0, 64).padEnd(64, ' '), 0x28, 'utf8');
	return { contentType: 'video/mp4', bytes };
}

/**
 * Result files the simulator serves under GET /files/<name>, like a CDN would. A file may be
 * made when asked for: a day of 10,000 tasks would otherwise hold 10 GB of result videos.
 */
export class FileStore {
	private readonly files = new Map<string, StoredFile | (() => StoredFile)>();

	put(name: string, file: StoredFile | (() => StoredFile)): void {
		this.files.set(name, file);
	}

	get(name: string): StoredFile | undefined {
		const file = this.files.get(name);
		return typeof file === 'function' ? file() : file;
	}

	clear(): void {
		this.files.clear();
	}
}
