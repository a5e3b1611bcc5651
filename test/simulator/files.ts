import { SAMPLE_MP4, SAMPLE_PNG } from './media';

export interface StoredFile {
	contentType: string;
	bytes: Buffer;
}

export const PNG_FILE: StoredFile = { contentType: 'image/png', bytes: SAMPLE_PNG };
export const MP4_FILE: StoredFile = { contentType: 'video/mp4', bytes: SAMPLE_MP4 };

/** Result files the simulator serves under GET /files/<name>, like a CDN would. */
export class FileStore {
	private readonly files = new Map<string, StoredFile>();

	put(name: string, file: StoredFile): void {
		this.files.set(name, file);
	}

	get(name: string): StoredFile | undefined {
		return this.files.get(name);
	}

	clear(): void {
		this.files.clear();
	}
}

const paddedVideos = new Map<number, StoredFile>();

/** The sample video padded with zeros to `bytes` (at least the sample), one copy per size. */
export function videoFile(bytes: number): StoredFile {
	if (bytes <= SAMPLE_MP4.length) return MP4_FILE;
	let file = paddedVideos.get(bytes);
	if (!file) {
		const padded = Buffer.alloc(bytes);
		SAMPLE_MP4.copy(padded);
		file = { contentType: 'video/mp4', bytes: padded };
		paddedVideos.set(bytes, file);
	}
	return file;
}
