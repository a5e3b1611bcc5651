import { deflateSync } from 'node:zlib';

/** Small but real media files, so clients can sniff, store and attach them. */

const CRC_TABLE = (() => {
	const table = new Uint32Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		table[n] = c >>> 0;
	}
	return table;
})();

function crc32(data: Buffer): number {
	let crc = 0xffffffff;
	for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(typeAndData));
	return Buffer.concat([length, typeAndData, crc]);
}

/** An RGB gradient PNG of the given size. */
export function makePng(width: number, height: number): Buffer {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header[8] = 8; // bit depth
	header[9] = 2; // colour type RGB
	const rows: number[] = [];
	for (let y = 0; y < height; y++) {
		rows.push(0); // filter: none
		for (let x = 0; x < width; x++)
			rows.push(Math.round((x / width) * 255), Math.round((y / height) * 255), 160);
	}
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		pngChunk('IHDR', header),
		pngChunk('IDAT', deflateSync(Buffer.from(rows))),
		pngChunk('IEND', Buffer.alloc(0)),
	]);
}

export const SAMPLE_PNG = makePng(16, 16);

/**
 * The sample's `ftyp` box and an `mdat` box filled with fixed pseudo-random bytes (they do not
 * compress, as real video does not) to `size` bytes in all (at least the sample's size): a large
 * result with the same type sniffing, not for playback.
 */
export function paddedMp4(size: number): Buffer {
	const header = SAMPLE_MP4.subarray(0, 0x20);
	const total = Math.max(size, SAMPLE_MP4.length);
	const mdat = Buffer.alloc(total - header.length);
	// xorshift32 from a fixed seed: the same bytes on every run.
	let state = 0x9e3779b9;
	for (let offset = 8; offset + 4 <= mdat.length; offset += 4) {
		state ^= state << 13;
		state ^= state >>> 17;
		state ^= state << 5;
		mdat.writeUInt32LE(state >>> 0, offset);
	}
	mdat.writeUInt32BE(mdat.length, 0);
	mdat.write('mdat', 4, 'ascii');
	return Buffer.concat([header, mdat]);
}

/** An ISO-BMFF header (`ftyp`) plus a tiny `mdat`: enough for type sniffing, not for playback. */
export const SAMPLE_MP4 = Buffer.concat([
	Buffer.from([0x00, 0x00, 0x00, 0x20]),
	Buffer.from('ftypisom', 'ascii'),
	Buffer.from([0x00, 0x00, 0x02, 0x00]),
	Buffer.from('isomiso2avc1mp41', 'ascii'),
	Buffer.from([0x00, 0x00, 0x00, 0x10]),
	Buffer.from('mdat', 'ascii'),
	Buffer.from('simulated!', 'ascii').subarray(0, 8),
]);
