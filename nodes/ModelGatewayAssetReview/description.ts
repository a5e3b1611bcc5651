import type { INodeProperties } from 'n8n-workflow';

import * as review from './actions/review.operation';

/** The node's parameters: those of its one operation. */
export const properties: INodeProperties[] = [...review.description];
