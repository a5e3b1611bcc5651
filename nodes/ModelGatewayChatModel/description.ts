import type { INodeProperties } from 'n8n-workflow';

import * as supply from './actions/supply.operation';

/** The node's parameters: those of its one operation. */
export const properties: INodeProperties[] = [...supply.description];
