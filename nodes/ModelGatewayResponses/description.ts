import type { INodeProperties } from 'n8n-workflow';

import * as create from './actions/create.operation';

/** The node's parameters: those of its one operation. */
export const properties: INodeProperties[] = [...create.description];
