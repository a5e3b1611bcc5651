import type { INodeProperties } from 'n8n-workflow';

import * as complete from './actions/complete.operation';

/** The node's parameters: those of its one operation. */
export const properties: INodeProperties[] = [...complete.description];
