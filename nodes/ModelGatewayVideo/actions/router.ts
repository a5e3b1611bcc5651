import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { processItems } from '../../shared/items/items';
import type { CreateRequest, FamilyId, TaskReference } from '../../shared/tasks';
import * as create from './create.operation';
import * as getStatus from './getStatus.operation';
import { FAMILY_FROM_ITEM, itemFamily } from '../families/perItem';
import { ADD_CALLBACK_SECRET } from '../families/parameters';
import type { VideoItemSettings } from './types';
import { itemParameter } from '../../shared/items/itemParameters';

/**
 * Runs the selected operation through the shared item loop: every item's request is built
 * and checked first, then sent. Create lists the tasks it started when a failure stops it.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const operation = this.getNodeParameter('operation', 0) as string;
	const concurrency = this.getNodeParameter('options.concurrency', 0, 1) as number;
	const settings = (itemIndex: number) => itemSettings(this, itemIndex);
	const output =
		operation === 'getStatus'
			? await processItems(
					this,
					{
						prepare: (itemIndex) => getStatus.prepare.call(this, itemIndex, settings(itemIndex)),
						send: async (reference: TaskReference, itemIndex) =>
							await getStatus.send.call(this, reference, itemIndex, settings(itemIndex)),
					},
					{ concurrency },
				)
			: await processItems(
					this,
					{
						prepare: async (itemIndex) =>
							await create.prepare.call(this, itemIndex, settings(itemIndex)),
						send: async (request: CreateRequest, itemIndex) =>
							await create.send.call(this, request, itemIndex, settings(itemIndex)),
						createdId: create.createdId,
					},
					{ concurrency },
				);
	return [output];
}

function itemSettings(context: IExecuteFunctions, itemIndex: number): VideoItemSettings {
	const options = itemParameter(context, 'options', itemIndex, {}) as IDataObject;
	const selected = itemParameter(context, 'family', itemIndex, 'generic') as string;
	const familyFromItem = selected === FAMILY_FROM_ITEM;
	return {
		family: familyFromItem ? itemFamily(context, itemIndex) : (selected as FamilyId),
		familyFromItem,
		traceId: typeof options.traceId === 'string' ? options.traceId : undefined,
		addCallbackSecret: options[ADD_CALLBACK_SECRET] === true,
		binaryPropertyName:
			typeof options.binaryPropertyName === 'string' && options.binaryPropertyName.trim() !== ''
				? options.binaryPropertyName.trim()
				: 'data',
	};
}
