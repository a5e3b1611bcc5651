import { SAMPLE_MP4, SAMPLE_PNG, paddedMp4 } from './media';

export interface StoredFile {
	contentType: string;
	bytes: Buffer;
}

export const PNG_FILE: StoredFile = { contentType: 'image/png', bytes: SAMPLE_PNG };
export const MP4_FILE: StoredFile = { contentType: 'video/mp4', bytes: SAMPLE_MP4 };

let largeMp4: StoredFile | undefined;

/** The result video for the `resultVideoBytes` option: the sample for 0, else one shared padded file. */
export function resultMp4(resultVideoBytes: number): StoredFile {
	if (resultVideoBytes <= 0) return MP4_FILE;
	if (largeMp4?.bytes.length !== Math.max(resultVideoBytes, SAMPLE_MP4.length))
		largeMp4 = { contentType: 'video/mp4', bytes: paddedMp4(resultVideoBytes) };
	return largeMp4;
}

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
