import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { processItems } from '../../shared/items';
import type { FamilyId } from '../../shared/tasks';
import * as create from './create.operation';
import * as getStatus from './getStatus.operation';
import type { VideoItemSettings } from './types';

const operations = { create, getStatus };

/** Runs the selected operation once per item, through the shared item loop. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const operation = this.getNodeParameter('operation', 0) as keyof typeof operations;
	const concurrency = this.getNodeParameter('options.concurrency', 0, 1) as number;
	const { execute } = operations[operation] ?? operations.create;
	const output = await processItems(
		this,
		async (itemIndex) => await execute.call(this, itemIndex, itemSettings(this, itemIndex)),
		{ concurrency },
	);
	return [output];
}

function itemSettings(context: IExecuteFunctions, itemIndex: number): VideoItemSettings {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return {
		family: context.getNodeParameter('family', itemIndex) as FamilyId,
		traceId: typeof options.traceId === 'string' ? options.traceId : undefined,
		binaryPropertyName:
			typeof options.binaryPropertyName === 'string' && options.binaryPropertyName.trim() !== ''
				? options.binaryPropertyName.trim()
				: 'data',
	};
}
