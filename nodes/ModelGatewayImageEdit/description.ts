import type { INodeProperties } from 'n8n-workflow';

import * as edit from './actions/edit.operation';

/** The node's parameters: those of its one operation. */
export const properties: INodeProperties[] = [...edit.description];
