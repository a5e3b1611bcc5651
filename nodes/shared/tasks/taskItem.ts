import type { IBinaryKeyData, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { base64ToBinary, extensionFor, renamedBinary } from '../media/binary';
import type { ParsedTask } from './task';

/** `data`, `data_1`, `data_2`, ...: one binary property per inline video. */
export function videoBinaryProperty(base: string, index: number): string {
	return index === 0 ? base : `${base}_${index}`;
}

/** One output item per task: the normalized task as JSON, inline video bytes as binary data. */
export async function taskItem(
	context: IExecuteFunctions,
	parsed: ParsedTask,
	itemIndex: number,
	binaryPropertyName: string,
): Promise<INodeExecutionData> {
	const item: INodeExecutionData = {
		json: { ...parsed.task } as unknown as INodeExecutionData['json'],
		pairedItem: { item: itemIndex },
	};
	if (parsed.inlineVideos.length > 0) {
		const binary: IBinaryKeyData = {};
		for (const [index, video] of parsed.inlineVideos.entries()) {
			const fileName = `${parsed.task.taskId || 'video'}${index === 0 ? '' : `_${index}`}.${extensionFor(video.mimeType, 'mp4')}`;
			binary[videoBinaryProperty(binaryPropertyName, index)] =
				'binary' in video
					? renamedBinary(video.binary, fileName, video.mimeType)
					: await base64ToBinary(context, video.base64, fileName, video.mimeType);
		}
		item.binary = binary;
	}
	return item;
}
